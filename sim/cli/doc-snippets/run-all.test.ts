// `npm run doc-snippets` (run-all.ts) runs every block of the pages, judged as the snippet tests
// judge them, and ends on its figure line (#35).
import t from "tap";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packagePath, packageRoot } from "../../package-root.ts";

t.setTimeout(300_000);

const page = [
  "# A page",
  "<!-- readme-test expect=\"hello\" -->",
  "```sh",
  "echo hello from \"$TARGET\" with ${CPSIM_API_KEY:0:3}",
  "```",
  "<!-- readme-test -->",
  "```bash",
  "exit 3",
  "```",
  "<!-- readme-test skip: needs a cluster -->",
  "```sh",
  "kubectl apply -f x.yaml",
  "```",
  "```sh",
  "echo unmarked",
  "```",
  "```text",
  "not run",
  "```",
  "",
].join("\n");

function runAll(root: string, ...args: string[]) {
  return spawnSync(process.execPath, ["--import", "tsx", packagePath("sim/cli/doc-snippets/run-all.ts"), "--root", root, ...args], { cwd: packageRoot, encoding: "utf8", timeout: 240_000 });
}

t.test("every shell block is listed with its result, and the last line holds the figures", async (t) => {
  const root = mkdtempSync(join(tmpdir(), "cpsim-run-all-"));
  try {
    mkdirSync(join(root, "docs"));
    writeFileSync(join(root, "README.md"), page);
    writeFileSync(join(root, "docs", "x.md"), "# none\n");
    const table = runAll(root);
    t.equal(table.status, 1, `a failed snippet fails the run; stderr: ${table.stderr}`);
    const lines = table.stdout.trimEnd().split("\n");
    t.match(lines.at(-1), /^snippets=4 passed=1 failed=2 skipped=1 wall_s=\d+\.\d$/);
    t.match(lines.at(-2), /^load average before: [\d.]+ [\d.]+ [\d.]+; after: /);
    t.match(table.stdout, /^README\.md:3 +passed +\d+\.\d s {2}echo hello/m, "the passing block, with its seconds");
    t.match(table.stdout, /^README\.md:7 +failed .*exit 3\n.*exit code 3, expected 0/m, "the failing block, with why");
    t.match(table.stdout, /^README\.md:11 +skipped .*kubectl.*\n +needs a cluster/m, "the skipped block, with its reason");
    t.match(table.stdout, /^README\.md:14 +failed .*\n +no readme-test marker/m, "an unmarked block fails");
    const json = runAll(root, "--json", "--file", "README.md");
    const rows = json.stdout.trimEnd().split("\n");
    t.equal(rows.at(-1), lines.at(-1)!.replace(/wall_s=.*/, "") + rows.at(-1)!.replace(/.*(wall_s=)/, "$1"));
    t.same(rows.slice(0, 4).map((r) => (JSON.parse(r) as { where: string; result: string }).result), ["passed", "failed", "skipped", "failed"]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

t.test("usage errors exit 2", async (t) => {
  t.equal(runAll(packageRoot, "--nope").status, 2);
  t.equal(runAll(packageRoot, "--file", "docs/none.md").status, 2);
  const help = runAll(packageRoot, "--help");
  t.equal(help.status, 0);
  t.match(help.stdout, /--json[\s\S]*--file PAGE[\s\S]*--root DIR/);
});
