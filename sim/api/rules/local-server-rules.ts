/** Rules of the local test server for job handlers. */
import type { Rule } from "./rule.ts";

const LOCAL = "Local test server for handlers";
const CHOICE_LOCAL = "Local handler test server";

export const localServerRules = [
  {
    id: "local.default-address", title: "`--rp_serve_api` serves on localhost:8000 unless told otherwise",
    spec: "A handler program started with `--rp_serve_api` serves a local HTTP API (default `http://localhost:8000`).", section: LOCAL,
    source: "spec", severity: "error", kind: "response",
  },
  {
    id: "local.runsync", title: "Local `POST /runsync` runs the handler and answers its result",
    spec: "`POST /runsync` with `{input: object}` runs the handler and returns its result.", section: LOCAL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "local.run-placeholder", title: "Local `POST /run` answers a placeholder id without running the handler",
    spec: "`POST /run` returns only a placeholder request id and does not run the handler.", section: LOCAL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "local.test-input", title: "Without flags the handler runs on test_input.json; --test_input overrides it",
    spec: "Without flags, a `test_input.json` file next to the handler is used as input; an inline `--test_input` overrides the file.",
    section: LOCAL, source: "spec", severity: "error", kind: "response",
  },
  {
    id: "local.status-runs-once", title: "Local `/status/{id}` runs a stored job once; a second call answers FAILED",
    spec: "`/status/{id}` then runs it once and returns the result (a second call: `{\"status\": \"FAILED\", \"error\": \"Job ID not found\"}`).",
    section: CHOICE_LOCAL, source: "choices", severity: "error", kind: "response",
  },
  {
    id: "local.exit-code", title: "A one-shot handler run exits 0 on success, 1 on error or missing input",
    spec: "the process exits 0 on success, 1 on error or missing input.", section: CHOICE_LOCAL, source: "choices", severity: "error", kind: "response",
  },
] as const satisfies readonly Rule[];
