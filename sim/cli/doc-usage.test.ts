/**
 * Each command's page shows every flag its help shows (#35: docs/plan.md lacked --progress,
 * docs/load.md --max-requests): the `text` usage blocks of docs/NAME.md that name
 * `npx cpsim NAME` hold every flag of the command's CommandSpec (a flag on by default as its
 * `--no-` form), so a flag added to the table without its page fails here.
 */
import t from "tap";
import { packageRoot } from "../package-root.ts";
import { readSnippets } from "./doc-snippets/extract.ts";
import { commands } from "./main.ts";

for (const [name, entry] of Object.entries(commands)) {
  t.test(`docs/${name}.md's usage shows every flag of cpsim ${name} --help`, async (t) => {
    const { spec } = (await entry.load()) as { spec?: { flags: readonly { name: string; type: string; default?: unknown }[] } };
    if (spec === undefined) return void t.fail(`cpsim ${name} declares no CommandSpec`);
    const usage = readSnippets(packageRoot, `docs/${name}.md`)
      .filter((s) => s.lang === "text" && s.code.includes(`npx cpsim ${name}`))
      .map((s) => s.code)
      .join("\n");
    t.ok(usage !== "", `docs/${name}.md has a text block with the usage of npx cpsim ${name}`);
    for (const f of spec.flags) {
      const forms = f.type === "boolean" && f.default === true ? [`--${f.name}`, `--no-${f.name}`] : [`--${f.name}`];
      t.ok(forms.some((form) => new RegExp(`${form}(?![\\w-])`).test(usage)), `${forms.join(" or ")} is in the usage block`);
    }
  });
}
