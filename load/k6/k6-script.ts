/**
 * One scenario as a k6 script: the constant-arrival-rate executor (k6's open model, the same
 * meaning as `cpsim load --rate`), the scenario's requests, checks (as k6 `check` calls) and
 * thresholds (the same strings), a setup that submits the jobs the requests need, and a
 * handleSummary that writes JSON `cpsim load --baseline` reads. Plain JavaScript with
 * `// @ts-check`, type-checked against @types/k6 in the tests; URLs and keys come from __ENV.
 */
import { bodyBytes, mixOrder } from "../prepare-requests.ts";
import type { CheckSpec, Scenario } from "../scenario.ts";
import type { ExportK6Options } from "./export-k6.ts";

export interface K6ScriptOptions extends ExportK6Options {
  readonly version: string;
}

/** The k6 rate when neither --rate nor the scenario gives one. */
export const DEFAULT_K6_RATE = 50;

const js = (v: unknown): string => JSON.stringify(v);

function checkFunction(c: CheckSpec): string {
  switch (c.kind) {
    case "status": {
      const parts: string[] = [];
      if (c.in) parts.push(`${js(c.in)}.includes(r.status)`);
      if (c.min !== undefined) parts.push(`r.status >= ${c.min}`);
      if (c.max !== undefined) parts.push(`r.status <= ${c.max}`);
      return `(r) => ${parts.join(" && ") || "true"}`;
    }
    case "json-field":
      return `(r) => { const v = field(r, ${js(c.path)}); return (typeof v === "string" && v.length > 0) || typeof v === "number"; }`;
    case "json-array":
      return `(r) => { const v = field(r, ${js(c.path)}); return Array.isArray(v) && v.length >= ${c.minItems}; }`;
    case "stream-chunks":
      return `(r) => chunksWithin(r, ${c.maxBytes})`;
    case "header":
      return c.integer ? `(r) => /^\\d+$/.test(header(r, ${js(c.header)}).trim())` : `(r) => header(r, ${js(c.header)}) !== ""`;
  }
}

/** Body of a request, as the script builds it once in its init context. */
function bodyExpression(spec: Scenario["requests"][number]["body"]): string {
  if (!spec) return "null";
  if ("jobInput" in spec && spec.padToBytes !== undefined) {
    // The same bytes as cpsim builds, without shipping megabytes inside the script.
    const pad = bodyBytes(spec).length - bodyBytes({ jobInput: { ...spec.jobInput, pad: "" } }).length;
    return `JSON.stringify({ input: Object.assign(${js(spec.jobInput)}, { pad: "x".repeat(${pad}) }) })`;
  }
  return js(bodyBytes(spec).toString("utf8"));
}

export function k6ScriptFor(s: Scenario, o: K6ScriptOptions): string {
  const rate = o.rate ?? s.defaults.rate ?? DEFAULT_K6_RATE;
  const duration = o.durationS ?? s.defaults.durationS;
  const expected = s.expectedStatuses ?? { min: 200, max: 399 };
  const requests = s.requests
    .map((r) => `  { name: ${js(r.name)}, method: ${js(r.method)}, host: ${js(r.host)}, path: ${js(r.path)}, body: ${bodyExpression(r.body)}, graphql: ${r.body !== undefined && "graphql" in r.body} },`)
    .join("\n");
  const checks = s.checks.map((c) => `  { name: ${js(c.name)}, when: ${c.when ? js(c.when.status) : "null"}, request: ${c.request ? js(c.request) : "null"}, fn: ${checkFunction(c)} },`).join("\n");
  const setupSteps = (s.setup ?? []).map((st) => `  { name: ${js(st.name)}, count: ${st.count}, input: ${js(st.input)}, wait: ${st.waitForCompletion === true} },`).join("\n");
  const maxVUs = Math.max(10, Math.min(1000, Math.ceil(rate * 2)));
  const offPath = [
    s.canary ? "the canary (other requests keep being served)" : "",
    s.streamReassembly ? "the reassembly of sample streams" : "",
    s.rateLimitSequence ? "the RateLimit countdown and when 429s start" : "",
  ].filter(Boolean);
  const offPathNote = offPath.length ? `\n// Judged by \`cpsim load\` only, not by this script: ${offPath.join("; ")}.` : "";
  return `// @ts-check
// cpsim load scenario "${s.name}" as a k6 script (exported by cpsim ${o.version}, seed ${o.seed}).
// ${s.description.replace(/\n/g, " ")}
// Run: k6 run -e BASE_URL=http://127.0.0.1:8080 -e ${s.key === "limited" ? "LIMITED_API_KEY" : "API_KEY"}=... ${s.name}.js
// Compare: cpsim load --baseline ${s.name}.summary.json --scenario ${s.name}${offPathNote}
import http from "k6/http";
import { check, sleep } from "k6";
import exec from "k6/execution";
import { Counter } from "k6/metrics";

const BASE_URL = (__ENV.BASE_URL || ${js(o.target ?? "http://127.0.0.1:8080")}).replace(/\\/+$/, "");
const SERVERLESS_URL = (__ENV.SERVERLESS_URL || ${o.serverlessUrl ? js(o.serverlessUrl) : "BASE_URL"}).replace(/\\/+$/, "");
const API_KEY = __ENV.${s.key === "limited" ? "LIMITED_API_KEY || __ENV.API_KEY" : "API_KEY"} || "";
const ENDPOINT = __ENV.ENDPOINT || ${js(o.endpoint)};
const RATE = Number(__ENV.RATE || ${rate});
const DURATION = __ENV.DURATION || "${duration}s";

/** 429 answers, counted apart from failures as cpsim does. */
const rateLimited = new Counter("rate_limited");

export const options = {
  scenarios: {
    ${js(s.name)}: {
      executor: "constant-arrival-rate",
      rate: RATE,
      timeUnit: "1s",
      duration: DURATION,
      preAllocatedVUs: ${Math.min(maxVUs, 50)},
      maxVUs: ${maxVUs},
    },
  },
  thresholds: ${js(s.thresholds)},
  summaryTrendStats: ["avg", "min", "med", "max", "p(90)", "p(99)", "p(99.9)"],
  setupTimeout: "120s",
};

// 429 is not a failure here: it is counted in rate_limited.
http.setResponseCallback(http.expectedStatuses({ min: ${expected.min}, max: ${expected.max} }, 429));

/** @typedef {{ name: string, method: string, host: string, path: string, body: string | null, graphql: boolean }} Req */
/** @type {Req[]} */
const REQUESTS = [
${requests}
];
/** Seeded order of a weighted mix (indexes into REQUESTS), as cpsim lays it out. */
const ORDER = ${js(mixOrder(s, o.seed))};
/** @type {{ name: string, count: number, input: Record<string, unknown>, wait: boolean }[]} */
const SETUP = [
${setupSteps}
];

/** @param {import("k6/http").RefinedResponse<"text">} r */
function json(r) {
  try {
    return JSON.parse(String(r.body));
  } catch (e) {
    return undefined;
  }
}

/** @param {import("k6/http").RefinedResponse<"text">} r @param {string} path @returns {unknown} */
function field(r, path) {
  /** @type {any} */
  let v = json(r);
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = v[part];
  }
  return v;
}

/** @param {import("k6/http").RefinedResponse<"text">} r @param {string} name */
function header(r, name) {
  for (const k of Object.keys(r.headers)) if (k.toLowerCase() === name) return String(r.headers[k]);
  return "";
}

/** @param {import("k6/http").RefinedResponse<"text">} r @param {number} max */
function chunksWithin(r, max) {
  const body = json(r);
  const chunks = Array.isArray(body) ? body : body && body.stream;
  if (!Array.isArray(chunks)) return false;
  return chunks.every((c) => {
    const o = c && c.output;
    const text = typeof o === "string" ? o : JSON.stringify(o === undefined ? null : o);
    return text.length <= max;
  });
}

/** @typedef {(r: import("k6/http").RefinedResponse<"text">) => boolean} CheckFn */
/** @type {{ name: string, when: number[] | null, request: string | null, fn: CheckFn }[]} */
const CHECKS = [
${checks}
];

const headers = { Authorization: "Bearer " + API_KEY, "Content-Type": "application/json", Accept: "application/json" };

/** @param {string} path @param {string} host */
function url(path, host) {
  return (host === "base" ? BASE_URL : SERVERLESS_URL) + path.split("{endpoint}").join(encodeURIComponent(ENDPOINT));
}

const FINAL = ["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"];

/** Submits the jobs whose ids the requests use; waits for those that must be finished. */
export function setup() {
  /** @type {Record<string, string[]>} */
  const ids = {};
  for (const step of SETUP) {
    /** @type {string[]} */
    const made = [];
    for (let i = 0; i < step.count; i++) {
      const res = http.post(url("/v2/{endpoint}/run", "serverless"), JSON.stringify({ input: step.input }), { headers });
      const id = field(res, "id");
      if (typeof id === "string") made.push(id);
    }
    if (step.wait) {
      for (let round = 0; round < 300; round++) {
        const open = made.filter((id) => !FINAL.includes(String(field(http.get(url("/v2/{endpoint}/status/" + id, "serverless"), { headers }), "status"))));
        if (open.length === 0) break;
        sleep(0.2);
      }
    }
    ids[step.name] = made;
  }
  return { ids };
}

/** @param {{ ids: Record<string, string[]> }} data */
export default function (data) {
  const n = exec.scenario.iterationInTest;
  const req = REQUESTS[ORDER[n % ORDER.length]];
  let path = req.path;
  const m = /\\{ids:([a-z0-9-]+)\\}/.exec(path);
  if (m) {
    const list = data.ids[m[1]] || [];
    path = path.replace(m[0], encodeURIComponent(list.length ? list[n % list.length] : "none"));
  }
  let target = url(path, req.host);
  if (req.graphql) target += (target.includes("?") ? "&" : "?") + "api_key=" + encodeURIComponent(API_KEY);
  const res = http.request(req.method, target, req.body, { headers, tags: { name: req.name } });
  if (res.status === 429) rateLimited.add(1);
  /** @type {Record<string, CheckFn>} */
  const applicable = {};
  for (const c of CHECKS) if ((!c.when || c.when.includes(res.status)) && (!c.request || c.request === req.name)) applicable[c.name] = c.fn;
  check(res, applicable);
}
${
  s.terminatePods
    ? `
/** Terminates the pods the run created (they carry the scenario's pod name). */
export function teardown() {
  const list = field(http.get(BASE_URL + "/v2/pods", { headers }), "pods");
  if (!Array.isArray(list)) return;
  for (const pod of list) {
    if (pod && pod.name === "cpsim-load" && pod.status !== "TERMINATED") http.del(BASE_URL + "/v2/pods/" + encodeURIComponent(pod.id), null, { headers });
  }
}
`
    : ""
}
/** Writes the k6 summary with the scenario's name, which \`cpsim load --baseline FILE\` reads. */
/** @param {any} data */
export function handleSummary(data) {
  const dir = __ENV.SUMMARY_DIR || ".";
  return {
    [dir + "/${s.name}.summary.json"]: JSON.stringify(Object.assign({ cpsim: { scenario: ${js(s.name)}, seed: ${o.seed} } }, data), null, 2),
    stdout: "${s.name}: summary written to " + dir + "/${s.name}.summary.json\\n",
  };
}
`;
}
