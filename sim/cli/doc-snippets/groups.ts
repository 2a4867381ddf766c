/**
 * Which test file runs the snippets of which page, so that the pages' snippets run in a few
 * processes side by side rather than one long file. A page not named here (a new one) runs in
 * readme.test.ts.
 */
export const snippetGroups: Record<string, readonly string[]> = {
  conform: ["docs/conform.md", "docs/target-facts.md", "docs/profiles.md", "docs/mutation.md", "docs/rules.md"],
  serve: ["docs/serve.md", "docs/resources.md", "docs/handler.md", "docs/proxy.md"],
  // plan.md alone: its calibration and sweep snippets took 280 of the group's 500 s at load 10,
  // close to tap's 600 s a file when load.md's ran in the same file.
  load: ["docs/load.md", "docs/simulate.md", "docs/scenarios.md"],
  plan: ["docs/plan.md"],
  library: ["docs/library.md"],
};

/** The pages of a group; "readme" is README.md and every page no other group names. */
export function filesOfGroup(group: string, allFiles: readonly string[]): string[] {
  if (group !== "readme") return allFiles.filter((f) => snippetGroups[group]?.includes(f));
  const named = new Set(Object.values(snippetGroups).flat());
  return allFiles.filter((f) => !named.has(f));
}
