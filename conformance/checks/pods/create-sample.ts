/**
 * Creating valid pods and judging the answers: the frame of every createPod response rule.
 * It first sends the body most likely to fit (one GPU of the best-stocked type, or the smallest
 * CPU pod); when even that is refused for capacity the rule cannot be judged now and is skipped.
 * Then fast-check draws valid bodies; each pod created is terminated at once. A refusal for
 * capacity is never a verdict; nor is a refusal the run's value store attributes to a value of an
 * open field (a port protocol the target does not take, learned from that very answer: the next
 * bodies avoid it), nor one whose error names a catalog value the suite drew (a GPU type in a
 * cloud that does not offer it: catalog-refusals.ts, also avoided next); any other refusal is judged only by rules that ask for it. A property none of
 * whose runs was judged is skipped, never passed.
 */
import type { CreatePodRequest } from "../../../sim/api/schemas/index.ts";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { learnCatalogRefusal } from "./catalog-refusals.ts";
import { isCapacityRefusal } from "./create-capacity.ts";
import { sendCreate } from "./create-pod-client.ts";
import { checkProperty } from "./create-property.ts";
import { targetCatalog, type TargetCatalog } from "./create-target-catalog.ts";
import { fitBody, noBodyReason, safestBody, validBodyArb, type ValidBodyOptions } from "./create-valid-body.ts";

export interface Judged {
  readonly body: CreatePodRequest;
  readonly res: ClientResponse;
  readonly tc: TargetCatalog;
}

export interface SampleOptions extends ValidBodyOptions {
  readonly numRuns: number;
  /** Judge refusals too (created-201); otherwise only 2xx answers reach `judge`. */
  readonly judgeRefusals?: boolean;
  /**
   * For a rule of a default: the same body with that default written out (`cloud: "SECURE"`).
   * When the first body, which leaves it out, is refused for capacity, this one is sent: the
   * spec makes the two the same request, so its acceptance, the first refused again and this one
   * accepted again (a capacity that changes in step with the two twice over is no correct
   * target's), says the target did not apply the default.
   */
  readonly explicitDefault?: { readonly body: (b: CreatePodRequest) => CreatePodRequest; readonly expected: string };
}

/** What is wrong with one answer, in the words of the rule; undefined when it holds. */
export type Judge = (j: Judged) => string | undefined;

export async function sampleCreates(ctx: CheckContext, opts: SampleOptions, judge: Judge): Promise<CheckOutcome | undefined> {
  const tc = await targetCatalog(ctx);
  const values = ctx.client.values;
  const fitted = { ...opts, values };
  const arb = validBodyArb(tc, fitted);
  const first = safestBody(tc, opts.kind, values);
  if (arb === undefined || first === undefined) return ctx.skip(noBodyReason(tc, opts));
  let judged = 0;
  const refusedValues = new Set<string>();

  const probe = async (body: CreatePodRequest): Promise<FailureInput | undefined> => {
    const res = await sendCreate(ctx, { json: body });
    if (isCapacityRefusal(res)) return undefined;
    const refusal = values.refusalOf(res.exchange);
    if (refusal !== undefined) {
      refusedValues.add(`${refusal.pointer} = ${JSON.stringify(refusal.value)}`);
      return undefined;
    }
    // A catalog value the suite chose, refused with its path named: learnt, never a verdict.
    const learnt = learnCatalogRefusal(tc.refused, body, res);
    if (learnt !== undefined) {
      refusedValues.add(learnt);
      return undefined;
    }
    if (!opts.judgeRefusals && (res.status < 200 || res.status >= 300)) return undefined;
    judged++;
    const problem = judge({ body, res, tc });
    return problem === undefined ? undefined : { expected: problem, exchange: res.exchange };
  };

  const firstBody = fitBody(first, tc, fitted);
  const res = await sendCreate(ctx, { json: firstBody });
  if (isCapacityRefusal(res) && opts.explicitDefault !== undefined) {
    const failure = await defaultNotApplied(ctx, firstBody, opts.explicitDefault);
    if (failure !== undefined) return ctx.fail(failure);
  }
  if (isCapacityRefusal(res)) {
    return ctx.skip(`the target refused even the smallest pod for lack of capacity (HTTP ${res.status}); createPod's answer cannot be judged now`);
  }
  const firstLearnt = learnCatalogRefusal(tc.refused, firstBody, res);
  if (firstLearnt !== undefined) refusedValues.add(firstLearnt);
  else if (values.refusalOf(res.exchange) === undefined && (opts.judgeRefusals || (res.status >= 200 && res.status < 300))) {
    judged++;
    const problem = judge({ body: firstBody, res, tc });
    if (problem) return ctx.fail({ expected: problem, exchange: res.exchange });
  }
  const outcome = await checkProperty(ctx, arb, probe, { numRuns: opts.numRuns, shrinkBudget: 20 });
  if (outcome === undefined && judged === 0 && refusedValues.size > 0) {
    return ctx.skip(`nothing was judged: every body was refused for a value the suite drew (a field the spec leaves open, or a catalog value the target does not offer there) (${[...refusedValues].slice(0, 3).join("; ")})`);
  }
  return outcome;
}

/** A body left without a default refused for capacity, the same body with the default written out accepted, twice over: a failure. */
async function defaultNotApplied(ctx: CheckContext, left: CreatePodRequest, explicit: NonNullable<SampleOptions["explicitDefault"]>): Promise<FailureInput | undefined> {
  const written = explicit.body(left);
  const accepted = (r: ClientResponse) => r.status >= 200 && r.status < 300;
  const first = await sendCreate(ctx, { json: written });
  if (!accepted(first)) return undefined;
  const again = await sendCreate(ctx, { json: left });
  if (!isCapacityRefusal(again)) return undefined;
  const confirmed = await sendCreate(ctx, { json: written });
  if (!accepted(confirmed)) return undefined;
  return {
    expected: `${explicit.expected}: the body without it was refused for capacity (HTTP ${again.status}), twice, while the same body with it written out was accepted (HTTP ${confirmed.status}), twice`,
    exchange: again.exchange,
  };
}
