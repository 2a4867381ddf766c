/**
 * The rules a request breaks, judged on both sides. The validators of sim/api/validate say what
 * the spec refuses: a request they refuse is the client's finding (it sent what the spec
 * refuses), and the target's answer to it is judged too: a 2xx accepted what the spec refuses
 * (the target's finding), a refusal with the statuses the rule allows keeps the rule. Rules that
 * need the target's catalog (an unknown GPU type, a volume's data center) are not judged here:
 * the proxy knows no catalog but what the traffic shows.
 */
import { ruleById, statusAccepted } from "../../sim/api/rules/index.ts";
import {
  validateCreatePod, validateJobSubmit, validatePodAction, validateTtlQuery, validateWaitQuery, type CreatePodContext, type Validated,
} from "../../sim/api/validate/index.ts";
import type { SeenExchange } from "./answer.ts";
import type { Profile } from "./error-body.ts";
import { type CheckInput, type Judgement, type PassiveCheck } from "./judgement.ts";

/** Rules of createPod whose verdict depends on the target's catalog, which traffic does not show. */
const CATALOG_RULES = new Set([
  "pods.create.unknown-gpu-type", "pods.create.unknown-cpu-flavor", "pods.create.unknown-network-volume", "pods.create.unknown-data-center",
  "pods.create.unknown-registry", "pods.create.vcpu-valid-for-flavor", "pods.create.global-networking-nvidia",
  "pods.create.global-networking-data-center", "pods.create.network-volume-data-center",
]);

/** A catalog that knows everything, so only the rules that need no catalog speak. */
const OPEN_CATALOG: CreatePodContext = {
  gpuType: () => ({ manufacturer: "NVIDIA" }),
  cpuFlavor: () => ({ vcpuCounts: [2, 4, 8, 16, 32, 64, 128, 256, 512] }),
  networkVolume: () => ({ dataCenterId: "" }),
  dataCenter: () => ({ globalNetwork: true }),
};

/** The rules a request body or query breaks, each with the validator's sentence. */
export function requestViolations(x: SeenExchange, input: Pick<CheckInput, "op">): { ruleId: string; message: string }[] {
  const { op } = input;
  const r = x.request;
  const bodyOf = (): { ok: true; json: unknown } | { ok: false } => {
    if (r.text === undefined || r.text.trim() === "") return r.truncated ? { ok: false } : { ok: true, json: {} };
    return r.json === undefined ? { ok: false } : { ok: true, json: r.json };
  };
  const of = (v: Validated<unknown>) => (v.ok ? [] : v.violations.map((x) => ({ ruleId: x.ruleId as string, message: `${x.path ? `${x.path}: ` : ""}${x.message}` })));
  const malformed = () => (r.text !== undefined && r.text.trim() !== "" && r.json === undefined ? [{ ruleId: "errors.malformed-request", message: "the body is not JSON" }] : []);
  if (op.kind === "createPod") {
    const body = bodyOf();
    if (!body.ok) return malformed();
    return of(validateCreatePod(body.json, OPEN_CATALOG)).filter((v) => !CATALOG_RULES.has(v.ruleId));
  }
  if (op.kind === "podAction") {
    // Only where the action rides in a body (the spec leaves the shape open): a bare POST is not judged.
    const body = bodyOf();
    if (!body.ok || r.text === undefined || r.text.trim() === "") return [];
    return of(validatePodAction(body.json));
  }
  if (op.kind === "job" && (op.op === "run" || op.op === "runsync")) {
    const out: { ruleId: string; message: string }[] = [];
    if (op.op === "runsync" && r.query.has("wait")) out.push(...of(validateWaitQuery(r.query.get("wait"))));
    if (r.truncated) return [...out, ...of(validateJobSubmit({}, { kind: op.op, bodyBytes: r.size })).filter((v) => v.ruleId.startsWith("jobs.payload."))];
    const body = bodyOf();
    if (!body.ok) return out;
    return [...out, ...of(validateJobSubmit(body.json, { kind: op.op, bodyBytes: r.size }))];
  }
  if (op.kind === "job" && op.op === "status" && r.query.has("ttl")) return of(validateTtlQuery(r.query.get("ttl")));
  return [];
}

/**
 * Rules whose lenient reading accepts a 2xx (the value clamped or ignored, which only the job's
 * later behaviour shows): under lenient, an accepting answer is not judged here.
 */
const LENIENT_ACCEPTS = new Set(["jobs.runsync.wait-range", "jobs.status.ttl-query"]);

/** Whether a request's Content-Type is JSON (application/json, any +json); absent counts as JSON, as the spec's clients send it. */
export function isJsonMedia(contentType: string | undefined): boolean {
  if (contentType === undefined || contentType.trim() === "") return true;
  const type = contentType.split(";")[0].trim().toLowerCase();
  return type === "application/json" || type.endsWith("+json");
}

/** Which statuses say nothing about the body: the key, the rate limit, a server error. */
const UNRELATED = new Set([401, 403, 404, 429]);

function targetVerdict(ruleId: string, status: number, profile: Profile): string | undefined {
  const rule = ruleById(ruleId);
  if (!rule) return undefined;
  if (status >= 200 && status < 300) return `a refusal of a request that breaks ${ruleId} ("${rule.spec}"); the target accepted it with ${status}`;
  if (status >= 400 && status < 500 && !statusAccepted(rule, profile, status)) return `a refusal with ${rule.specStatuses?.join(" or ") ?? rule.strictStatuses?.join(" or ") ?? "a 4xx"}; got ${status}`;
  return undefined;
}

export const requestBodies: PassiveCheck = {
  name: "request-bodies",
  rules: [
    ...[
      "pods.create.unknown-property", "pods.create.name-required", "pods.create.name-min-length", "pods.create.image-required", "pods.create.disk-minimum",
      "pods.create.port-format", "pods.create.env-string-values", "pods.create.cloud-enum", "pods.create.gpu-count-minimum", "pods.create.vcpu-minimum",
      "pods.create.network-max-items", "pods.create.persistent-size-minimum", "pods.create.gpu-cpu-exclusive", "pods.create.persistent-on-cpu",
      "pods.create.mounts-exclusive", "pods.create.network-empty-array", "pods.create.vcpu-power-of-two", "pods.create.field-type",
      "pods.create.gpu-id-required", "pods.create.cpu-id-required", "pods.create.cpu-id-min-length", "pods.create.vcpu-count-required",
      "pods.create.mount-entry-incomplete", "pods.action.unknown-property", "pods.action.action-required", "pods.action.action-enum", "pods.action.field-type",
      "jobs.submit.input-object", "jobs.submit.unknown-key", "jobs.submit.field-type", "jobs.submit.webhook-url", "jobs.submit.policy-execution-timeout",
      "jobs.submit.policy-ttl", "jobs.payload.run-limit", "jobs.payload.runsync-limit", "jobs.runsync.wait-range", "jobs.status.ttl-query", "errors.malformed-request",
    ].flatMap((id) => [{ id, side: "client" as const }, { id, side: "target" as const }]),
  ],
  judge({ exchange, op, profile }) {
    const violations = requestViolations(exchange, { op });
    const out: Judgement[] = [];
    const seen = new Set<string>();
    for (const v of violations) {
      if (seen.has(v.ruleId)) continue;
      seen.add(v.ruleId);
      out.push({ ruleId: v.ruleId, side: "client", problem: `a request the spec accepts; ${v.message}` });
      const a = exchange.answer;
      // Judged on the target only when the request breaks this one rule: the status then speaks of it.
      const clamped = profile === "lenient" && LENIENT_ACCEPTS.has(v.ruleId) && a !== undefined && a.status >= 200 && a.status < 300;
      // A body sent as another media type than JSON may be refused for that (415, or any 4xx): the
      // spec fixes the status for a JSON body that breaks a rule, not for a body of another type.
      const otherMedia = !isJsonMedia(exchange.request.headers["content-type"]) && a !== undefined && a.status >= 400;
      if (a && !clamped && !otherMedia && !UNRELATED.has(a.status) && a.status < 500 && violations.every((w) => w.ruleId === v.ruleId)) {
        const problem = targetVerdict(v.ruleId, a.status, profile);
        out.push(problem === undefined ? { ruleId: v.ruleId, side: "target" } : { ruleId: v.ruleId, side: "target", problem });
      }
    }
    return out;
  },
};

/** Where the client put its key: REST and job endpoints in the Authorization header, GraphQL in the `api_key` query. */
export const keyPlacement: PassiveCheck = {
  name: "key-placement",
  rules: [
    { id: "auth.bearer-header", side: "client" },
    { id: "graphql.auth-api-key", side: "client" },
  ],
  judge({ exchange, op }) {
    const r = exchange.request;
    const header = r.headers["authorization"] !== undefined;
    const query = r.query.has("api_key");
    if (op.kind === "graphql") {
      if (!header && !query) return [];
      return [{ ruleId: "graphql.auth-api-key", side: "client", ...(query ? {} : { problem: "the key in the `api_key` query parameter (\"GraphQL: the key is sent in the query parameter `api_key`.\"); the client sent it in the Authorization header" }) }];
    }
    if (op.kind === "unknown" || (!header && !query)) return [];
    return [{ ruleId: "auth.bearer-header", side: "client", ...(header ? {} : { problem: "the key in the Authorization header as `Bearer <API_KEY>`; the client sent it in the `api_key` query parameter" }) }];
  },
};

export const requestChecks: readonly PassiveCheck[] = [requestBodies, keyPlacement];
