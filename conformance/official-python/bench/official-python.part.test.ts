// npm run official-python without Python: its usage is docs/development.md's, and a missing client or a wrong option is exit 2 saying so.
import t from "tap";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packagePath } from "../../../sim/package-root.ts";
import { officialPython, USAGE } from "./official-python.ts";

const run = async (argv: string[]) => {
  const out: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (...a: unknown[]) => void out.push(a.join(" "));
  console.error = console.log;
  try {
    return { code: await officialPython(argv), out: out.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
};

t.test("--help prints the usage docs/development.md shows", async (t) => {
  const { code, out } = await run(["--help"]);
  t.equal(code, 0);
  t.equal(out, USAGE);
  t.ok(readFileSync(packagePath("docs", "development.md"), "utf8").includes(`\`\`\`text\n${USAGE}\n\`\`\``), "the docs' usage block is the --help text");
});

t.test("a directory without the client, an unknown option, an option without its value: exit 2, saying what to do", async (t) => {
  const empty = mkdtempSync(join(tmpdir(), "cpsim-no-client-"));
  const missing = await run(["--client-dir", empty]);
  t.equal(missing.code, 2);
  t.match(missing.out, `${empty} holds no runpod/__init__.py: give --client-dir a runpod-python source tree`);
  t.same(await run(["--bogus"]), { code: 2, out: "official-python: unknown option --bogus" });
  t.same(await run(["--python"]), { code: 2, out: "official-python: --python needs a value" });
});
