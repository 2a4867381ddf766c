/**
 * Captured ids in reproductions of GraphQL sequences. The framework's curl script reads a
 * captured id from a top-level string field of a JSON answer, but a GraphQL answer nests it
 * (`{"data": {"podFindAndDeployOnDemand": {"id": ...}}}`). A capture here names the path
 * `data.<operation>.id`, and the script is given a small reader for that shape: GraphQL answers
 * keep the order of the selection, and every deploy selects `id` first, so the first `"id"`
 * inside the operation's object, before any nested object, is the pod's. (Until curl.ts reads
 * nested paths itself; then this file can go.)
 */
import type { CheckContext, Failure } from "../../check.ts";
import type { CurlCapture } from "../../curl.ts";
import type { Exchange } from "../../recorder.ts";

export const POD_ID_VARIABLE = "POD_ID";

const PATH = /^data\.([A-Za-z_][A-Za-z0-9_]*)\.id$/;

/** The shell function the patched scripts call: `graphql_id <operation>` reads stdin. */
const READER = `graphql_id() {
  tr -d '\\r\\n' | grep -o "\\"$1\\"[[:space:]]*:[[:space:]]*{[^{}]*\\"id\\"[[:space:]]*:[[:space:]]*\\"[^\\"]*\\"" | head -n 1 | sed 's/.*"\\([^"]*\\)"$/\\1/'
}`;

/** A capture of the pod id that the `operation` answer at `fromRequest` of the sequence created. */
export function podIdCapture(fromRequest: number, operation: string, podId: string): CurlCapture {
  return { variable: POD_ID_VARIABLE, fromRequest, field: `data.${operation}.id`, value: podId };
}

/** The failure with its curl script reading nested captures through `graphql_id`. */
export function withGraphqlCaptures(failure: Failure): Failure {
  const curl = failure.reproduction.curl;
  let used = false;
  const patched = curl.replace(/json_field '(data\.[A-Za-z_][A-Za-z0-9_]*\.id)'/g, (whole, path: string) => {
    const m = PATH.exec(path);
    if (!m) return whole;
    used = true;
    return `graphql_id '${m[1]}'`;
  });
  if (!used) return failure;
  // Defined before the first request, after the header's key checks.
  const at = patched.indexOf("\necho '### 1/");
  const withReader = at < 0 ? `${READER}\n${patched}` : `${patched.slice(0, at)}\n${READER}\n${patched.slice(at)}`;
  return { ...failure, reproduction: { ...failure.reproduction, curl: withReader } };
}

/**
 * The exchanges of a pod's story from its deploy up to (not including) `last`, for a failure's
 * `sequence`, and the capture of its id. The recorder is bounded: when the deploy was dropped,
 * only the failing exchange is replayed.
 */
export function storyOf(ctx: CheckContext, deploy: Exchange, last: Exchange, operation: string, podId: string | undefined): { sequence: Exchange[]; captures: CurlCapture[] } {
  const all = ctx.client.exchanges();
  const from = all.indexOf(deploy);
  const to = all.indexOf(last);
  if (from < 0 || to <= from) return { sequence: [], captures: [] };
  return { sequence: all.slice(from, to), captures: podId ? [podIdCapture(0, operation, podId)] : [] };
}
