/**
 * Registers one tap test per runnable snippet of the given pages, each judged by checkSnippet
 * (check-snippet.ts), as `npm run doc-snippets` judges it. Markers: extract.ts.
 */
import type { Test } from "tap";
import { packageRoot } from "../../package-root.ts";
import { readSnippets } from "./extract.ts";
import { checkSnippet, missingPrograms, runnable } from "./check-snippet.ts";

export { readmeExports, runnable, standInTarget } from "./check-snippet.ts";

/**
 * `installed`: the pages' snippets run as in a project that installed cpsim (node_modules/cpsim
 * only), not in a clone: no fixtures/ beside them.
 */
export function testSnippetsOf(t: Test, files: readonly string[], options: { readonly installed?: boolean } = {}): void {
  const count = files.reduce((n, f) => n + readSnippets(packageRoot, f).filter(runnable).length, 0);
  t.test(`the pages ${files.join(", ")} hold ${count} runnable snippets`, async (t) => { t.pass(); });
  for (const file of files) {
    for (const s of readSnippets(packageRoot, file).filter(runnable)) {
      t.test(`${s.file}:${s.line}: ${s.code.split("\n")[0]}`, { skip: missingPrograms(s) ?? false }, async (t) => {
        const check = await checkSnippet(s, options);
        t.same(check.problems, [], `${s.file}:${s.line} runs as written (exit ${check.run.code}, ${check.seconds.toFixed(1)} s)`);
      });
    }
  }
}
