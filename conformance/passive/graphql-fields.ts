/**
 * The rules a GraphQL answer shows against the document that asked for it, with `conform`'s own
 * readers (conformance/checks/graphql): the `{data}` envelope holding every selected field (under
 * the rule of the operation that selected it: `myself { pods }`, `pod`, `gpuTypes` and their
 * `lowestPrice`, the three pod mutations; any other root under graphql.envelope), the types of pod
 * records, runtimes and GPU types (the lenient profile judges only the members whose type the
 * sentence states), the `desiredStatus` podStop and podResume answer, the errors envelope
 * (choices.md) and a call without a key, which is not served. A document that does not parse, or
 * an answer carrying errors, is judged on its errors only: the spec fixes no partial answer.
 */
import { Kind, parse, type DocumentNode, type FieldNode } from "graphql";
import { missingSelections } from "../checks/graphql/selection-check.ts";
import { podTypeProblems, STATED_GPU_TYPE, STATED_RUNTIME } from "../checks/graphql/pod-types.ts";
import { schemaErrors } from "../checks/support/schema.ts";
import type { Profile } from "./error-body.ts";
import { verdict, type Judgement, type PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const show = (v: unknown) => (v === undefined ? "absent" : JSON.stringify(v)?.slice(0, 120));

/** The rule of the fields each root operation selects. */
const FIELDS_RULE: Readonly<Record<string, string>> = {
  myself: "graphql.myself-pods.fields",
  pod: "graphql.pod.fields",
  gpuTypes: "graphql.gpu-types.fields",
  podFindAndDeployOnDemand: "graphql.pod-find-and-deploy.fields",
  podResume: "graphql.pod-resume.fields",
  podStop: "graphql.pod-stop.fields",
};

/** The desiredStatus a pod mutation answers. */
const DESIRED: Readonly<Record<string, readonly [string, string]>> = {
  podStop: ["graphql.pod-stop.exited", "EXITED"],
  podResume: ["graphql.pod-resume.running", "RUNNING"],
};

/** Root fields answering pod records, and where the records are under them. */
const POD_ROOTS: Readonly<Record<string, (v: unknown) => unknown[]>> = {
  pod: (v) => [v],
  podFindAndDeployOnDemand: (v) => [v],
  myself: (v) => (isObj(v) && Array.isArray(v.pods) ? v.pods : []),
};

const stated = (profile: Profile, errors: readonly string[], re: RegExp) => (profile === "strict" ? [...errors] : errors.filter((e) => re.test(e)));

/** The parsed documents of the queries seen last: clients repeat their documents. */
const PARSED = new Map<string, DocumentNode | null>();
function parsed(query: string): DocumentNode | null {
  let doc = PARSED.get(query);
  if (doc === undefined) {
    try {
      doc = parse(query);
    } catch {
      doc = null;
    }
    if (PARSED.size >= 128) PARSED.delete(PARSED.keys().next().value!);
    PARSED.set(query, doc);
  }
  return doc;
}

/** Each root field of the document's operation: its name, the key it answers under, and its document alone. */
interface Root {
  readonly name: string;
  readonly key: string;
  readonly document: string;
  readonly field: FieldNode;
}

function roots(doc: DocumentNode, query: string): Root[] {
  const op = doc.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!op || op.kind !== Kind.OPERATION_DEFINITION) return [];
  const out: Root[] = [];
  for (const sel of op.selectionSet.selections) {
    if (sel.kind !== Kind.FIELD || !sel.loc) continue;
    out.push({ name: sel.name.value, key: sel.alias?.value ?? sel.name.value, document: `${op.operation === "mutation" ? "mutation " : ""}{ ${query.slice(sel.loc.start, sel.loc.end)} }`, field: sel });
  }
  return out;
}

/** The string literal `input: {<name>: "..."}` of a root field, when the document writes one (not a variable). */
function inputString(field: FieldNode, name: string): string | undefined {
  const input = field.arguments?.find((a) => a.name.value === "input")?.value;
  if (input?.kind !== Kind.OBJECT) return undefined;
  const v = input.fields.find((f) => f.name.value === name)?.value;
  return v?.kind === Kind.STRING ? v.value : undefined;
}

function fieldJudgements(name: string, key: string, document: string, data: Record<string, unknown>): Judgement[] {
  const rule = FIELDS_RULE[name] ?? "graphql.envelope";
  const missing = missingSelections(document, data, 8);
  if (name !== "gpuTypes") return [verdict(rule, missing.length ? `{data} holding every field the document selected ("${key}"); missing: ${missing.join(", ")}` : undefined)];
  // lowestPrice's own fields are its rule's; the GPU types' the other's.
  const own = missing.filter((m) => !/\.lowestPrice\./.test(m));
  const price = missing.filter((m) => /\.lowestPrice\./.test(m));
  const out = [verdict(rule, own.length ? `{data} holding every GPU type field the document selected; missing: ${own.join(", ")}` : undefined)];
  if (/lowestPrice/.test(document)) out.push(verdict("graphql.lowest-price.fields", price.length ? `lowestPrice holding every field the document selected; missing: ${price.join(", ")}` : undefined));
  return out;
}

function typeJudgements(name: string, key: string, value: unknown, profile: Profile): Judgement[] {
  const out: Judgement[] = [];
  const pods = POD_ROOTS[name]?.(value).filter(isObj) ?? [];
  if (pods.length > 0) {
    const problems = pods.flatMap((p, i) => podTypeProblems(`${key}${name === "myself" ? `.pods[${i}]` : ""}`, p));
    out.push(verdict("graphql.pod.types", problems.length ? `pod fields typed as the spec says; ${problems.slice(0, 8).join("; ")}` : undefined));
    const runtimes = pods.filter((p) => isObj(p.runtime));
    if (runtimes.length > 0) {
      const problems = runtimes.flatMap((p) => stated(profile, schemaErrors("GraphqlPodRuntime", p.runtime), STATED_RUNTIME).map((e) => `${key}.runtime${e}`));
      out.push(verdict("graphql.runtime.types", problems.length ? `runtime shaped as the spec says; ${problems.slice(0, 8).join("; ")}` : undefined));
    }
  }
  if (name === "gpuTypes" && Array.isArray(value)) {
    const problems: string[] = [];
    value.filter(isObj).forEach((t, i) => {
      for (const e of stated(profile, schemaErrors("GraphqlGpuType", t), STATED_GPU_TYPE)) problems.push(`${key}[${i}]${e}`);
      const lp = t.lowestPrice;
      // A price may be absent where nothing is offered; where GPUs are offered it is a number.
      if (isObj(lp) && Array.isArray(lp.availableGpuCounts) && lp.availableGpuCounts.length > 0 && typeof lp.uninterruptablePrice !== "number") {
        problems.push(`${key}[${i}].lowestPrice.uninterruptablePrice: ${show(lp.uninterruptablePrice)} where availableGpuCounts offers GPUs, not a number`);
      }
    });
    if (value.length > 0) out.push(verdict("graphql.gpu-type.types", problems.length ? `GPU types typed as the spec says; ${problems.slice(0, 8).join("; ")}` : undefined));
  }
  const desired = DESIRED[name];
  if (desired && isObj(value) && Object.hasOwn(value, "desiredStatus")) {
    out.push(verdict(desired[0], value.desiredStatus === desired[1] ? undefined : `${name} answering desiredStatus ${desired[1]}; got ${show(value.desiredStatus)}`));
  }
  return out;
}

export const graphqlFields: PassiveCheck = {
  name: "graphql-fields",
  rules: [
    { id: "graphql.envelope", side: "target" },
    { id: "graphql.errors-envelope", side: "target" },
    { id: "graphql.auth-api-key", side: "target" },
    ...[...new Set(Object.values(FIELDS_RULE))].map((id) => ({ id, side: "target" as const })),
    { id: "graphql.lowest-price.fields", side: "target" },
    { id: "graphql.pod.types", side: "target" },
    { id: "graphql.runtime.types", side: "target" },
    { id: "graphql.gpu-type.types", side: "target" },
    { id: "graphql.pod-stop.exited", side: "target" },
    { id: "graphql.pod-resume.running", side: "target" },
    { id: "graphql.pod-find-and-deploy.creates", side: "target" },
  ],
  judge({ exchange, op, profile }) {
    const a = exchange.answer;
    const r = exchange.request;
    if (op.kind !== "graphql" || !a || a.truncated || a.status >= 500 || a.status === 429) return [];
    const out: Judgement[] = [];
    const keyless = r.headers["authorization"] === undefined && !r.query.has("api_key");
    const body = a.json;
    const errors = isObj(body) && Array.isArray(body.errors) ? body.errors : undefined;
    if (keyless) {
      // "GraphQL: the key is sent in the query parameter `api_key`": a call without one is not served.
      const served = a.status >= 200 && a.status < 300 && isObj(body) && isObj(body.data) && errors === undefined;
      out.push(verdict("graphql.auth-api-key", served ? `a call without a key is not served ("the key is sent in the query parameter \`api_key\`"); got ${a.status} with data` : undefined));
      // choices.md: "an unauthenticated call answers HTTP 401".
      out.push(verdict("graphql.errors-envelope", a.status === 401 ? undefined : `HTTP 401 for a call without a key (docs/choices.md); got HTTP ${a.status}`));
    }
    if (errors !== undefined || a.status === 400 || a.status === 401 || a.status === 403) {
      const problems = isObj(body) ? schemaErrors("GraphqlErrorEnvelope", body) : [`the body is not a JSON object`];
      (errors ?? []).forEach((e, i) => {
        const code = isObj(e) && isObj(e.extensions) ? e.extensions.code : undefined;
        if (typeof code !== "string") problems.push(`/errors/${i}/extensions/code: missing or not a string`);
      });
      out.push(verdict("graphql.errors-envelope", problems.length ? `the errors envelope {errors: [{message, extensions: {code}}]} (docs/choices.md); ${problems.slice(0, 6).join("; ")}` : undefined));
      return out;
    }
    if (a.status !== 200 || !isObj(r.json) || typeof r.json.query !== "string") return out;
    const doc = parsed(r.json.query);
    if (doc === null) return out;
    if (!isObj(body) || !isObj(body.data)) {
      out.push(verdict("graphql.envelope", `a successful answer in the envelope {data: {...}} ("Successful responses have the envelope \`{data: {...}}\`"); got ${show(body)}`));
      return out;
    }
    for (const root of roots(doc, r.json.query)) {
      out.push(...fieldJudgements(root.name, root.key, root.document, Object.hasOwn(body.data, root.key) ? { [root.key]: body.data[root.key] } : {}));
      if (!Object.hasOwn(body.data, root.key)) continue;
      const value = body.data[root.key];
      out.push(...typeJudgements(root.name, root.key, value, profile));
      // The pod a deploy creates is the one it asked for: its name, where the answer shows it.
      const asked = root.name === "podFindAndDeployOnDemand" ? inputString(root.field, "name") : undefined;
      if (asked !== undefined && isObj(value) && typeof value.name === "string") {
        out.push(verdict("graphql.pod-find-and-deploy.creates", value.name === asked ? undefined : `the pod podFindAndDeployOnDemand creates, named as its input asks ("Creates and deploys a pod"): "${asked}"; got name ${show(value.name)}`));
      }
    }
    return out;
  },
};
