/**
 * Requests that must fail, for the errors.* rules: createPod bodies that break one rule (400 or
 * 422), bodies that are not JSON at all (400), a body breaking two schema rules at once (a 422
 * whose `errors` may list both), no key and an unknown key (401), the read-only key (403), a
 * read of a pod that does not exist (404 under strict; getPod's path is a choice) and an action
 * the pod's status does not allow (409 under strict: `start` on a pod just created, which is
 * PROVISIONING or RUNNING; the action route and the 409 are choices).
 * Under the lenient profile the last two are sent too, since "Any other error uses the same
 * body" whatever the status, but an answer is judged only where the route is the target's: the
 * unknown pod's read once a read of a pod the probe created at the same path was taken, the
 * start unless it answered as a missing route (404, 405, 501) (`probeJudgeable`).
 * Each probe is one request; a 2xx answer (a target that accepted what it should not) creates a
 * pod, which is terminated, and is left to the rule that forbids it.
 */
import fc from "fast-check";
import type { RuleId } from "../../../sim/api/rules/index.ts";
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { brokenCaseArb, breakable, CREATE_REQUEST_RULES } from "./create-broken-bodies.ts";
import { podActionRequest } from "../../target-facts/index.ts";
import { createdPodId, podsUrl, sendCreate, terminatePod } from "./create-pod-client.ts";
import type { TargetCatalog } from "./create-target-catalog.ts";
import { validBodyArb } from "./create-valid-body.ts";

export type Probe =
  | { readonly kind: "break"; readonly ruleId: RuleId; readonly body: unknown }
  | { readonly kind: "double"; readonly body: unknown }
  | { readonly kind: "malformed"; readonly text: string }
  | { readonly kind: "no-key"; readonly body: unknown }
  | { readonly kind: "bad-key"; readonly key: string; readonly body: unknown }
  | { readonly kind: "restricted"; readonly body: unknown }
  | { readonly kind: "unknown-pod"; readonly podId: string }
  | { readonly kind: "conflict"; readonly body: unknown };

export type ProbeKind = Probe["kind"];

/** Rules a schema validator judges (the emulator's 422s): two of them broken at once make a "double". */
const SCHEMA_BREAKS: readonly { readonly how: string; readonly apply: (d: Record<string, unknown>) => void }[] = [
  { how: "disk 0", apply: (d) => void (d.disk = 0) },
  { how: "name \"\"", apply: (d) => void (d.name = "") },
  { how: "cloud PRIVATE", apply: (d) => void (d.cloud = "PRIVATE") },
  { how: "port 8888 without protocol", apply: (d) => void (d.ports = ["8888"]) },
  { how: "env value 1", apply: (d) => void (d.env = { PORT: 1 }) },
  { how: "no image", apply: (d) => void delete d.image },
];

const isJson = (text: string): boolean => {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
};

/** Text that is not JSON: valid bodies cut short, and the usual hand-written mistakes. */
export function malformedArb(valid: fc.Arbitrary<unknown>): fc.Arbitrary<string> {
  const cut = valid.chain((b) => {
    const s = JSON.stringify(b);
    return fc.integer({ min: 1, max: Math.max(1, s.length - 1) }).map((k) => s.slice(0, k));
  });
  const mistakes = fc.constantFrom(
    "{name: 'x', image: 'ubuntu'}",
    "{'name': 'x'}",
    '{"name": "x", "image": "ubuntu",}',
    "name=x&image=ubuntu",
    "<pod><name>x</name></pod>",
    '{"name": "x" "image": "ubuntu"}',
    "{,}",
    "undefined",
  );
  return fc.oneof(cut, mistakes).filter((s) => s.trim() !== "" && !isJson(s));
}

const breakableCache = new WeakMap<TargetCatalog, RuleId[]>();

/** Rules that can be broken with this catalog, for "break" probes (worked out once per catalog). */
export function breakableRules(tc: TargetCatalog, seed: number): RuleId[] {
  let rules = breakableCache.get(tc);
  if (rules === undefined) {
    rules = CREATE_REQUEST_RULES.filter((id) => {
      const arb = brokenCaseArb(id, tc);
      return arb !== undefined && breakable(arb, seed);
    });
    breakableCache.set(tc, rules);
  }
  return rules;
}

export function probeArb(ctx: CheckContext, tc: TargetCatalog, kinds: readonly ProbeKind[]): fc.Arbitrary<Probe> | undefined {
  const valid = validBodyArb(tc, { values: ctx.client.values });
  if (valid === undefined) return undefined;
  const arbs: fc.Arbitrary<Probe>[] = [];
  const want = (k: ProbeKind) => kinds.includes(k);
  if (want("break")) {
    const rules = breakableRules(tc, ctx.seed);
    if (rules.length > 0) {
      arbs.push(
        fc
          .constantFrom(...rules)
          .chain((ruleId) => brokenCaseArb(ruleId, tc, ctx.client.values)!.map((c) => ({ ruleId, c })))
          .filter(({ c }) => c.broken !== undefined)
          .map(({ ruleId, c }): Probe => ({ kind: "break", ruleId, body: c.broken })),
      );
    }
  }
  if (want("double")) {
    const pair = fc.uniqueArray(fc.nat({ max: SCHEMA_BREAKS.length - 1 }), { minLength: 2, maxLength: 2 });
    arbs.push(
      fc.tuple(valid, pair).map(([b, [i, j]]): Probe => {
        const d = JSON.parse(JSON.stringify(b)) as Record<string, unknown>;
        SCHEMA_BREAKS[i!]!.apply(d);
        SCHEMA_BREAKS[j!]!.apply(d);
        return { kind: "double", body: d };
      }),
    );
  }
  if (want("malformed")) arbs.push(malformedArb(valid).map((text): Probe => ({ kind: "malformed", text })));
  if (want("no-key")) arbs.push(valid.map((body): Probe => ({ kind: "no-key", body })));
  if (want("bad-key")) {
    arbs.push(fc.tuple(valid, fc.stringMatching(/^[A-Za-z0-9]{16,40}$/)).map(([body, k]): Probe => ({ kind: "bad-key", key: `cpsim-invalid-${k}`, body })));
  }
  if (want("restricted") && ctx.keys.restricted) arbs.push(valid.map((body): Probe => ({ kind: "restricted", body })));
  if (want("unknown-pod")) {
    arbs.push(fc.stringMatching(/^[a-z0-9]{14}$/).map((id): Probe => ({ kind: "unknown-pod", podId: `cpsim-no-such-pod-${id}` })));
  }
  if (want("conflict")) arbs.push(valid.map((body): Probe => ({ kind: "conflict", body })));
  return arbs.length > 0 ? fc.oneof(...arbs) : undefined;
}

/** The checks whose target answered a read of a pod it had created at `{podsUrl}/{id}`: its getPod route. */
const podReadServed = new WeakSet<CheckContext>();

const routeMissing = (status: number): boolean => status === 404 || status === 405 || status === 501;

/**
 * Whether an answer to `probe` is the target's own answer to what the probe means. Under strict
 * the routes are choices.md's; under lenient the unknown pod's read counts only once the target
 * served a read at that path, and the start of a pod only when it was not answered as a route the
 * target lacks: a framework's default 404 for a path it does not serve is no ErrorResponse verdict.
 */
export function probeJudgeable(ctx: CheckContext, probe: Probe, res: ClientResponse): boolean {
  if (ctx.options.profile === "strict") return true;
  if (probe.kind === "unknown-pod") return podReadServed.has(ctx);
  if (probe.kind === "conflict") return !routeMissing(res.status);
  return true;
}

export async function sendProbe(ctx: CheckContext, probe: Probe): Promise<ClientResponse> {
  switch (probe.kind) {
    case "break":
    case "double":
      return sendCreate(ctx, { json: probe.body });
    case "malformed":
      return sendCreate(ctx, { raw: probe.text });
    case "no-key":
      return sendCreate(ctx, { json: probe.body, auth: null });
    case "bad-key":
      return sendCreate(ctx, { json: probe.body, auth: { literal: probe.key } });
    case "restricted":
      return sendCreate(ctx, { json: probe.body, auth: { key: "restricted" } });
    case "unknown-pod":
      return ctx.client.request({ method: "GET", url: `${podsUrl(ctx)}/${probe.podId}`, auth: { key: "api" } });
    case "conflict": {
      const created = await ctx.client.request({ method: "POST", url: podsUrl(ctx), auth: { key: "api" }, json: probe.body });
      const id = createdPodId(created);
      // Not created (no capacity): that refusal is an error answer to judge as well.
      if (id === undefined) return created;
      try {
        const read = await ctx.client.request({ method: "GET", url: `${podsUrl(ctx)}/${id}`, auth: { key: "api" } });
        if (read.status >= 200 && read.status < 300) podReadServed.add(ctx);
        return await ctx.client.request(podActionRequest(ctx, id, "start"));
      } finally {
        await terminatePod(ctx, id);
      }
    }
  }
}

/** The probe in words, for a failure. */
export function describeProbe(probe: Probe): string {
  switch (probe.kind) {
    case "break":
      return `createPod with a body that breaks ${probe.ruleId}`;
    case "double":
      return "createPod with a body that breaks two schema rules";
    case "malformed":
      return "createPod with a body that is not JSON";
    case "no-key":
      return "createPod without a key";
    case "bad-key":
      return "createPod with an unknown key";
    case "restricted":
      return "createPod with the read-only key";
    case "unknown-pod":
      return "a read of a pod that does not exist";
    case "conflict":
      return "start of a pod just created (an action its status does not allow)";
  }
}
