// `cpsim rules`: the catalog printed as text, Markdown and JSON, through the dispatcher.
import t from "tap";
import { main } from "../../cli/main.ts";
import { rules } from "./rules.ts";

async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(["rules", ...argv], { stdout: (s) => out.push(s), stderr: (s) => err.push(s) });
  return { code, stdout: out.join(""), stderr: err.join("") };
}

t.test("--json prints every rule with its id, sentence, section and readings", async (t) => {
  const r = await cli("--json");
  t.equal(r.code, 0);
  const printed = JSON.parse(r.stdout) as Array<Record<string, unknown>>;
  t.equal(printed.length, rules.length);
  const byId = new Map(printed.map((p) => [p.id, p]));
  for (const rule of rules) {
    const p = byId.get(rule.id);
    t.ok(p, rule.id);
    t.equal(p?.spec, rule.spec);
    t.equal(p?.section, rule.section);
  }
  t.same(byId.get("pods.create.unknown-property")?.readings, { lenient: "any 4xx", strict: "422" });
  t.equal(byId.get("jobs.cancel.queued")?.readings, null, "a rule not kept by refusing has no status readings");
});

t.test("text and Markdown name each selected rule and quote its sentence", async (t) => {
  const text = await cli("pods.create.*");
  t.equal(text.code, 0);
  const selected = rules.filter((r) => r.id.startsWith("pods.create."));
  t.ok(selected.length > 10);
  for (const rule of selected) t.ok(text.stdout.includes(`${rule.id}  (`) && text.stdout.includes(`"${rule.spec}"`), rule.id);
  t.notOk(text.stdout.includes("jobs."), "only the selected rules");
  t.match(text.stdout, new RegExp(`\\n${selected.length} rules\\n$`));

  const md = await cli("--markdown", "pods.create.*");
  const rows = md.stdout.split("\n").filter((l) => l.startsWith("| `"));
  t.equal(rows.length, selected.length, "one table row per rule");
  // A sentence with a pipe stays in its cell.
  for (const row of rows) t.equal(row.split(/(?<!\\)\|/).length, 11, row.slice(0, 60));
});

t.test("bad usage exits 2 and no match exits 1, each saying what to do", async (t) => {
  const both = await cli("--json", "--markdown");
  t.equal(both.code, 2);
  t.match(both.stderr, /--json and --markdown exclude each other/);
  const none = await cli("nothing.like.this");
  t.equal(none.code, 1);
  t.match(none.stderr, /no rule id matches "nothing\.like\.this"; run "cpsim rules"/);
  const help = await cli("--help");
  t.equal(help.code, 0);
  t.match(help.stdout, /Usage: cpsim rules \[GLOB\] \[--json \| --markdown\]/);
});
