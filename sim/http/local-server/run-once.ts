/**
 * `cpsim handler FILE` without `--rp_serve_api`: runs the handler once on `--test_input` (inline
 * JSON), else on `test_input.json` next to the handler, as the platform SDK does. Exit 0 when the
 * job completes, 1 when the handler fails or the input is missing or invalid (the message says which).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { HandlerRuntime } from "../../handler/index.ts";

export interface RunOnceResult {
  readonly exitCode: 0 | 1;
  /** The job as the platform shows it: `{id, status, output}` or `{id, status: "FAILED", error}`; undefined without input. */
  readonly job?: Record<string, unknown>;
  /** Why it exited 1, for stderr. */
  readonly message?: string;
}

export const LOCAL_TEST_JOB_ID = "local_test";
/** A test_input.json larger than this is refused (the spec's runsync payload limit). */
const MAX_TEST_INPUT_BYTES = 20 * 1024 * 1024;

/** The test job's input, or why there is none. */
export function readTestInput(handlerFile: string, inline: string | undefined): { input: unknown } | { error: string } {
  let text: string;
  let where: string;
  if (inline !== undefined) {
    text = inline;
    where = "--test_input";
  } else {
    const path = join(dirname(handlerFile), "test_input.json");
    if (!existsSync(path)) {
      return { error: `no test input: pass --test_input '{"input": {...}}' or put a test_input.json next to the handler (looked for ${path})` };
    }
    const size = readFileSync(path).length;
    if (size > MAX_TEST_INPUT_BYTES) return { error: `${path} is larger than ${MAX_TEST_INPUT_BYTES} bytes` };
    text = readFileSync(path, "utf8");
    where = path;
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return { error: `${where} is not valid JSON: ${(err as Error).message}` };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value) || !("input" in value)) {
    return { error: `${where} must be a JSON object with an "input" key, like {"input": {"prompt": "hello"}}` };
  }
  const input = (value as { input: unknown }).input;
  // The same rule as the local server's /run and /runsync (which answer 422): a job's input is an object.
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { error: `${where}: "input" must be a JSON object, like {"input": {"prompt": "hello"}}, got ${input === null ? "null" : Array.isArray(input) ? "an array" : `a ${typeof input}`} (the local server answers 422 for the same body)` };
  }
  return { input };
}

export async function runOnce(runtime: HandlerRuntime, inline: string | undefined, executionTimeoutMs: number): Promise<RunOnceResult> {
  const test = readTestInput(runtime.file, inline);
  if ("error" in test) return { exitCode: 1, message: test.error };
  const exec = runtime.run({ id: LOCAL_TEST_JOB_ID, input: test.input });
  const timer = setTimeout(exec.stop, executionTimeoutMs);
  const outcome = await exec.result;
  clearTimeout(timer);
  if (outcome.ok) return { exitCode: 0, job: { id: LOCAL_TEST_JOB_ID, status: "COMPLETED", output: outcome.output } };
  const error = outcome.stopped === true ? `execution timeout exceeded (${executionTimeoutMs} ms)` : outcome.error;
  return { exitCode: 1, job: { id: LOCAL_TEST_JOB_ID, status: "FAILED", error }, message: `the handler failed: ${error}` };
}
