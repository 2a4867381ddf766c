// The README's snippets work when followed literally: every ```sh block right after a
// `<!-- readme-test -->` line runs, as written, in bash from the repository root.
import t from "tap";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { packagePath, packageRoot } from "../package-root.ts";

const readme = readFileSync(packagePath("README.md"), "utf8");
const blocks = [...readme.matchAll(/<!-- readme-test -->\n```sh\n([\s\S]*?)\n```/g)].map((m) => m[1]);

t.setTimeout(180_000);

t.test("the README marks its runnable snippets", async (t) => {
  t.ok(blocks.length >= 2, `${blocks.length} snippets`);
  t.ok(blocks.some((b) => b.includes("--ready-file")), "the background serve snippet is one of them");
});

for (const [i, block] of blocks.entries()) {
  t.test(`README snippet ${i + 1}: ${block.split("\n")[0]}`, async (t) => {
    // As a user's shell would run it: no npm or tap variables from this test run.
    const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("npm_") && !k.startsWith("TAP") && !k.startsWith("_TAPJS")));
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      execFile("bash", ["-euo", "pipefail", "-c", block], { cwd: packageRoot, env, timeout: 120_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });
    t.equal(result.code, 0, `exit code; stderr: ${result.stderr}`);
    if (block.includes("--ready-file")) {
      t.match(result.stdout, /\{"pods":\[/, "curl reached the server through the URL and key read from the ready file");
      t.match(result.stderr, /cpsim serve: stopped/, "the server stopped on the kill by pid");
    } else if (block.includes("cpsim rules")) {
      t.match(result.stdout, /^jobs\.cancel\.queued {2}\(/m);
      t.match(result.stdout, /^\d{3} rules$/m);
    }
  });
}
