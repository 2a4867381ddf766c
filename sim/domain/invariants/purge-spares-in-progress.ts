/** Purge never touches IN_PROGRESS jobs: every job it removes was IN_QUEUE. */
import type { ServerlessChecker, ServerlessCheckState } from "./serverless-check-state.ts";

export const purgeSparesInProgress: ServerlessChecker = {
  id: "serverless.purge-spares-in-progress",
  title: "Purge never touches IN_PROGRESS jobs",
  check(state: ServerlessCheckState): string[] {
    const out: string[] = [];
    for (const t of state.transitions ?? []) {
      if (t.cause === "purge" && t.from !== "IN_QUEUE") out.push(`purge removed job key ${t.key} in ${t.from}`);
    }
    return out;
  },
};
