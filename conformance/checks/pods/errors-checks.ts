/**
 * The errors.* rules: every REST error answer is an ErrorResponse in application/problem+json,
 * its `status` the HTTP status, its `title` the one the spec's table gives for that status,
 * a 422 may list the individual failures in `errors`, a body that is not JSON is a 400, and
 * success bodies are application/json. fast-check draws the failing requests (errors-probes.ts);
 * one of each kind is sent first, so every status the rule speaks of is seen in every run.
 */
import fc from "fast-check";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { registerCheck } from "../../check-registry.ts";
import { acceptedText, accepts } from "../support/statuses.ts";
import { isCapacityRefusal } from "./create-capacity.ts";
import { sendCreate } from "./create-pod-client.ts";
import { checkProperty, scaledRuns } from "./create-property.ts";
import { targetCatalog } from "./create-target-catalog.ts";
import { noBodyReason, safestBody } from "./create-valid-body.ts";
import { jsonIssue, problemFormatProblem, statusMatchesProblem, titleProblem } from "../../passive/error-body.ts";
import { describeProbe, probeArb, probeJudgeable, sendProbe, type Probe, type ProbeKind } from "./errors-probes.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

type ProbeJudge = (ctx: CheckContext, probe: Probe, res: ClientResponse) => string | undefined;

async function checkProbes(ctx: CheckContext, kinds: readonly ProbeKind[], judge: ProbeJudge): Promise<CheckOutcome | undefined> {
  const tc = await targetCatalog(ctx);
  const arb = probeArb(ctx, tc, kinds);
  if (arb === undefined) return ctx.skip(noBodyReason(tc));
  // One probe of each kind first, drawn from the same seed.
  const examples = kinds.flatMap((k) => {
    const one = probeArb(ctx, tc, [k]);
    return one ? fc.sample(one, { seed: ctx.seed, numRuns: 1 }) : [];
  });
  return checkProperty(
    ctx,
    arb,
    async (probe) => {
      const res = await sendProbe(ctx, probe);
      if (!probeJudgeable(ctx, probe, res)) return undefined;
      const problem = judge(ctx, probe, res);
      return problem === undefined ? undefined : { expected: `${describeProbe(probe)} answered HTTP ${res.status}: ${problem}`, exchange: res.exchange };
    },
    { numRuns: scaledRuns(ctx, 0.5), examples },
  );
}

// The judgements of one answer are the passive module's: conform and proxy give the same verdict.
const formatJudge =
  (quote: string): ProbeJudge =>
  (_ctx, _probe, res) =>
    problemFormatProblem(res, quote);

registerCheck("errors.problem-json", (ctx) => checkProbes(ctx, ["break", "double", "malformed"], formatJudge(ctx.rule.spec)), { needs: { keys: ["api"] } });

registerCheck(
  "errors.same-body",
  // conflict before unknown-pod: the pod the first creates shows where the target reads a pod.
  (ctx) => checkProbes(ctx, ["no-key", "bad-key", "restricted", "conflict", "unknown-pod"], formatJudge(`${ctx.rule.spec}: Bodies follow ErrorResponse with content type \`application/problem+json\``)),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "errors.status-matches",
  (ctx) =>
    // Under lenient an unknown pod's read is judged only where a created pod was read at its path (same-body does it).
    checkProbes(ctx, ["break", "malformed", "no-key", "bad-key", "restricted", ...(ctx.options.profile === "strict" ? (["unknown-pod"] as const) : [])], (_ctx, _probe, res) =>
      statusMatchesProblem(res),
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "errors.title-matches-status",
  (ctx) =>
    checkProbes(ctx, ["break", "malformed", "no-key", "bad-key", "restricted"], (c, _probe, res) => titleProblem(res, c.options.profile)),
  { needs: { keys: ["api"] } },
);

/**
 * errors.validation-list. The sentence says individual failures "may be listed": under lenient a
 * 422 without `errors` keeps it, and the rule judges only what ErrorResponse's table states of a
 * list that is there (`errors`, an array of string); a run in which no 422 listed any is skipped,
 * not passed. Whether a 422 lists its failures, and each of them, is the emulator's reading,
 * required under --profile strict only.
 */
registerCheck(
  "errors.validation-list",
  async (ctx) => {
    let listed = 0;
    const outcome = await checkProbes(ctx, ["double", "break"], (c, probe, res) => {
      if (res.status !== 422 || !isObj(res.json)) return undefined;
      const errors = res.json.errors;
      const quote = `("${c.rule.spec}")`;
      if (errors === undefined) {
        return c.options.profile === "strict" ? `a 422 listing the individual failures in \`errors\` ${quote}; found none (the list is the emulator's reading, strict only)` : undefined;
      }
      listed++;
      if (!Array.isArray(errors) || !errors.every((e) => typeof e === "string")) return `\`errors\` as an array of strings ("errors | array of string | no"); found ${JSON.stringify(errors)}`;
      if (c.options.profile === "strict" && errors.length === 0) return `a non-empty \`errors\` on a 422 ${quote} (strict only)`;
      if (c.options.profile === "strict" && probe.kind === "double" && errors.length < 2) {
        return `\`errors\` listing both failures of a body that breaks two schema rules ${quote} (strict only); found ${JSON.stringify(errors)}`;
      }
      return undefined;
    });
    if (outcome !== undefined || listed > 0 || ctx.options.profile === "strict") return outcome;
    return ctx.skip(`no 422 listed individual failures in \`errors\`, which the sentence allows ("${ctx.rule.spec}"): nothing of the list to judge; --profile strict requires the list`);
  },
  { needs: { keys: ["api"] } },
);

registerCheck(
  "errors.malformed-request",
  (ctx) =>
    checkProbes(ctx, ["malformed"], (c, _probe, res) =>
      accepts(c, res.status) ? undefined : `${acceptedText(c)} for a body that is not JSON ("400 | Bad Request | Malformed request ...")`,
    ),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "errors.json-bodies",
  async (ctx) => {
    const tc = await targetCatalog(ctx);
    const expected = (what: string, issue: string) => `${what} with a JSON body and Content-Type application/json ("${ctx.rule.spec}"); found ${issue}`;
    const body = safestBody(tc, undefined, ctx.client.values);
    if (body === undefined) return ctx.skip(noBodyReason(tc));
    const created = await sendCreate(ctx, { json: body });
    if (created.status >= 200 && created.status < 300) {
      const issue = jsonIssue(created);
      if (issue) return ctx.fail({ expected: expected("createPod's 201", issue), exchange: created.exchange });
    }
    // A request body sent as `application/json; charset=utf-8` is still application/json; only
    // the strict profile asks for it, since the spec shows the bare media type.
    if (ctx.options.profile === "strict") {
      const res = await sendCreate(ctx, { json: body, headers: { "content-type": "application/json; charset=utf-8" } });
      if (res.status !== 201 && !isCapacityRefusal(res)) {
        return ctx.fail({ expected: `201 for a valid createPod sent with Content-Type application/json; charset=utf-8 ("${ctx.rule.spec}")`, exchange: res.exchange });
      }
    }
    // The pod list and the catalog reads answer in JSON too, where the target serves them (a 200).
    for (const path of ["/v2/pods", "/v2/catalog/cpus", "/v2/catalog/datacenters", "/v2/catalog/gpus"]) {
      const res = await ctx.client.request({ method: "GET", url: `${ctx.target.rest}${path}`, auth: { key: "api" } });
      if (res.status !== 200) continue;
      const issue = jsonIssue(res);
      if (issue) return ctx.fail({ expected: expected(`GET ${path}`, issue), exchange: res.exchange });
    }
    return undefined;
  },
  { needs: { keys: ["api"] } },
);
