/**
 * The rules a GraphQL answer shows by itself, whatever the query: every `env` of a pod record is
 * a list of `KEY=value` strings (judged by conform's own envProblems, with no variables sent to
 * look for: the proxy judges the shape), and every `stockStatus` is High, Medium, Low or None.
 * The answer's data is walked whole; a field the query did not ask for is simply absent. A pod
 * record is the object of a field that answers a Pod (POD_FIELDS); the `env` of templates and
 * endpoints (`saveTemplate`, `myself { endpoints podTemplates }`), records the spec does not
 * show, is `[{key, value}]` and no pod's.
 */
import { envProblems } from "../checks/graphql/env-problems.ts";
import { STOCK_STATUSES } from "../../sim/api/schemas/graphql.ts";
import { verdict, type Judgement, type PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The fields whose value is a Pod record (or a list of them): the spec's operations and deployCpuPod. */
const POD_FIELDS: ReadonlySet<string> = new Set(["pod", "pods", "podFindAndDeployOnDemand", "deployCpuPod", "podResume", "podStop"]);

/** Every (key, value, path, owner) of the answer's data, depth first, up to a bound of nodes; owner is the field whose object holds key. */
function* fields(v: unknown, path: string, owner = "", budget = { left: 100_000 }): Generator<[string, unknown, string, string]> {
  if (--budget.left < 0) return;
  if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) yield* fields(x, `${path}[${i}]`, owner, budget);
    return;
  }
  if (!isObj(v)) return;
  for (const [k, x] of Object.entries(v)) {
    yield [k, x, `${path}.${k}`, owner];
    yield* fields(x, `${path}.${k}`, k, budget);
  }
}

export const graphqlAnswers: PassiveCheck = {
  name: "graphql-answers",
  rules: [
    { id: "graphql.env-key-value", side: "target" },
    { id: "graphql.stock-status-enum", side: "target" },
  ],
  judge({ exchange, op }) {
    const a = exchange.answer;
    if (op.kind !== "graphql" || !a || a.status !== 200 || a.truncated || !isObj(a.json) || !isObj(a.json.data)) return [];
    const env: string[] = [];
    const stock: string[] = [];
    let envSeen = false;
    let stockSeen = false;
    for (const [k, v, path, owner] of fields(a.json.data, "data")) {
      if (k === "env" && v !== null && POD_FIELDS.has(owner)) {
        envSeen = true;
        env.push(...envProblems([], v).map((p) => `${path}: ${p}`));
      }
      if (k === "stockStatus" && v !== null) {
        stockSeen = true;
        if (!(STOCK_STATUSES as readonly unknown[]).includes(v)) stock.push(`${path} is ${JSON.stringify(v)}`);
      }
    }
    const out: Judgement[] = [];
    if (envSeen) out.push(verdict("graphql.env-key-value", env.length ? `a pod's env as a list of KEY=value strings; ${env.slice(0, 4).join("; ")}` : undefined));
    if (stockSeen) out.push(verdict("graphql.stock-status-enum", stock.length ? `stockStatus one of ${STOCK_STATUSES.join(", ")}; ${stock.slice(0, 4).join("; ")}` : undefined));
    return out;
  },
};

/**
 * Rules of a request and its answer: a request that carries no key at all is refused with 401
 * ("A missing, malformed or unknown key gives 401"), neither served nor refused with 403; a
 * createPod that leaves a field to its default gets the default, judged as `conform` judges it:
 * `cloud` SECURE, a GPU's `count` 1 (or left out of the answer), `globalNetworking` disabled.
 */
export const keyAndDefaults: PassiveCheck = {
  name: "key-and-defaults",
  rules: [
    { id: "auth.missing-key", side: "target" },
    { id: "pods.create.default-cloud", side: "target" },
    { id: "pods.create.default-gpu-count", side: "target" },
    { id: "pods.create.default-global-networking", side: "target" },
  ],
  judge({ exchange, op }) {
    const a = exchange.answer;
    const r = exchange.request;
    if (!a || op.kind === "unknown" || op.kind === "graphql") return [];
    const out: Judgement[] = [];
    const keyless = r.headers["authorization"] === undefined && !r.query.has("api_key");
    if (keyless && (a.status === 401 || a.status === 403 || (a.status >= 200 && a.status < 300))) {
      out.push(verdict("auth.missing-key", a.status === 401 ? undefined : `401 for a request without a key ("A missing, malformed or unknown key gives 401"); got ${a.status}`));
    }
    if (op.kind === "createPod" && a.status >= 200 && a.status < 300 && !a.truncated && isObj(r.json) && isObj(a.json)) {
      const body = r.json;
      const pod = a.json;
      const show = (v: unknown) => (v === undefined ? "absent" : JSON.stringify(v));
      if (!Object.hasOwn(body, "cloud")) {
        out.push(verdict("pods.create.default-cloud", pod.cloud === "SECURE" ? undefined : `cloud SECURE for a body that names none ("cloud | Cloud | no | Default \`SECURE\`"); got ${show(pod.cloud)}`));
      }
      if (isObj(body.gpu) && !Object.hasOwn(body.gpu, "count")) {
        // A response may leave `count` out (it is optional in GpuConfig); when it says, it says 1.
        const count = isObj(pod.gpu) ? pod.gpu.count : undefined;
        const problem = !isObj(pod.gpu) ? "the pod has no gpu object" : count === undefined || count === 1 ? undefined : `got ${show(count)}`;
        out.push(verdict("pods.create.default-gpu-count", problem && `gpu.count 1 for a body that sends gpu without count ("count | integer, minimum 1 | no | Default 1"); ${problem}`));
      }
      if (!Object.hasOwn(body, "globalNetworking")) {
        const enabled = isObj(pod.globalNetworking) ? pod.globalNetworking.enabled : undefined;
        out.push(verdict("pods.create.default-global-networking", enabled === false ? undefined : `globalNetworking.enabled false for a body without globalNetworking ("globalNetworking | boolean | no | Default false"); got globalNetworking ${show(pod.globalNetworking)}`));
      }
    }
    return out;
  },
};
