/**
 * Spending one of the other account's windows, once per run, for the three rules that need a
 * 429: ratelimit.429-when-spent, ratelimit.retry-after and ratelimit.429-detail-names-window.
 * The other account is used so the rest of the suite (the api key) is never blocked.
 *
 * 1. Pick a cheap read the target answers the other key with 2xx and a readable RateLimit:
 *    GET /v2/pods (choices.md, REST) when served, else the job endpoint's health (spec).
 * 2. Send it until it answers 429, judging each answer by the one before: a 2xx while a window
 *    was at r=0 and could not have reset, or a 429 while every window had requests left, breaks
 *    "429 exactly when a window is spent". A target seen giving quota back before t (r rising,
 *    gives-back.ts), or a sliding window whose t names the whole quota's return (t back at w with
 *    every request), may give a request's room back before t: a 2xx there that shows the window
 *    in its RateLimit is sent on from, and only no 429 within the bound breaks the rule. A window
 *    with more than BOUND requests left is not spent: the three rules are skipped, saying so.
 * 3. At the 429: Retry-After in integer seconds, with RateLimit and RateLimit-Policy (the spec
 *    does not tie Retry-After to t: a sliding window's room comes back before its whole quota).
 *    Then a REST 429 (the probe's own, or a createPod when the probe was a job endpoint) must be
 *    problem+json whose detail names the spent window.
 * 4. Wait Retry-After (virtual time through the control API; real time, up to two minutes,
 *    elsewhere) and send the probe again: a 429 then means Retry-After came before the reset.
 *    This also leaves the other key usable for whatever runs next.
 */
import type { CheckContext, FailureInput } from "../../../check.ts";
import type { ClientResponse, RequestSpec } from "../../../client.ts";
import type { Exchange } from "../../../recorder.ts";
import { advance } from "../../support/time.ts";
import { gpuChoice, podBody } from "../pod-body.ts";
import { problemIssues, problemText } from "../problem-json.ts";
import { terminatePod } from "../cleanup.ts";
import { is2xx, jobUrl, restUrl, stringField } from "../target.ts";
import { limitsOf, readPolicy, type LimitMember } from "./read-rate-limit.ts";
import { givesBackEarly, noteGiveBack } from "./gives-back.ts";
import { windowSteps } from "./window-steps.ts";

export type Verdict =
  | { readonly kind: "pass" }
  | { readonly kind: "skip"; readonly reason: string }
  | { readonly kind: "fail"; readonly failures: readonly FailureInput[] };

export interface ExhaustionVerdicts {
  readonly whenSpent: Verdict;
  readonly retryAfter: Verdict;
  readonly detail: Verdict;
}

/** The most requests spent on one window: a larger quota is not exhausted. */
export const EXHAUSTION_BOUND = 500;
/** The longest real wait for a reset against a target without the control API. */
export const MAX_REAL_WAIT_S = 120;

const WHEN = 'a 429 exactly when a window is spent: "The per-user rate limit is exceeded" gives 429 (Errors › REST v2), and each request lowers every window\'s remaining count';
const RETRY = "a 429 with `Retry-After` in integer seconds, after which the request is served, together with `RateLimit` and `RateLimit-Policy` (Errors › REST v2: \"headers `Retry-After` (integer seconds), `RateLimit`, `RateLimit-Policy` accompany it\")";
const DETAIL = 'a 429 whose detail names the exceeded window ("the detail names the exceeded window", Errors › REST v2)';

interface Probe {
  readonly name: string;
  readonly rest: boolean;
  readonly spec: RequestSpec;
}

interface Answer {
  readonly res: ClientResponse;
  readonly at: number;
  /** Its index in the log. */
  readonly index: number;
}

const memo = new WeakMap<object, Promise<ExhaustionVerdicts>>();

/** The verdicts of this run's exhaustion, spending the window the first time any of the three rules asks. */
export function exhaustion(ctx: CheckContext): Promise<ExhaustionVerdicts> {
  let found = memo.get(ctx.options);
  if (!found) {
    found = new Exhaustion(ctx).run();
    memo.set(ctx.options, found);
  }
  return found;
}

const pass: Verdict = { kind: "pass" };
const skip = (reason: string): Verdict => ({ kind: "skip", reason });
const fail = (failure: FailureInput): Verdict => ({ kind: "fail", failures: [failure] });
const skipAll = (reason: string): ExhaustionVerdicts => ({ whenSpent: skip(reason), retryAfter: skip(reason), detail: skip(reason) });

function spentWindows(limits: ReadonlyMap<string, LimitMember> | undefined): LimitMember[] {
  return [...(limits?.values() ?? [])].filter((w) => w.remaining === 0);
}

/**
 * Whether the spent windows may have given a request's room back before their t, the served
 * answer still reporting each of them: the run has seen this target's r rise before t
 * (gives-back.ts), or each one's t in the spent answer is its whole length w (or a second less),
 * as a sliding window's is when t names the whole quota's return (it starts again with every
 * request). A fixed window's t is w only in its first second.
 */
function mayGiveBack(spentHeaders: Readonly<Record<string, string>>, spent: readonly LimitMember[], served: ReadonlyMap<string, LimitMember> | undefined, seenEarly: boolean): boolean {
  if (!served || !spent.every((w) => served.get(w.name)?.remaining !== undefined)) return false;
  if (seenEarly) return true;
  const policy = readPolicy(spentHeaders["ratelimit-policy"]);
  if (!policy.ok) return false;
  return spent.every((w) => {
    const length = policy.members.find((p) => p.name === w.name)?.window;
    return length !== undefined && w.reset !== undefined && w.reset >= length - 1;
  });
}

function describe(limits: ReadonlyMap<string, LimitMember>): string {
  return [...limits.values()].map((w) => `"${w.name}" r=${w.remaining ?? "?"}${w.reset !== undefined ? ` t=${w.reset}` : ""}`).join(", ");
}

function retryAfterSeconds(res: ClientResponse): number | undefined {
  const v = res.headers["retry-after"]?.trim();
  return v !== undefined && /^\d+$/.test(v) ? Number(v) : undefined;
}

class Exhaustion {
  private readonly log: Exchange[] = [];

  constructor(private readonly ctx: CheckContext) {}

  private async send(spec: RequestSpec): Promise<Answer> {
    const res = await this.ctx.client.request(spec);
    this.log.push(res.exchange);
    return { res, at: Date.now(), index: this.log.length - 1 };
  }

  private before(a: Answer): Exchange[] {
    return this.log.slice(0, a.index);
  }

  /** Lets `seconds` pass on the target; false when that would take too long in real time. */
  private async wait(seconds: number): Promise<boolean> {
    if (!this.ctx.controlApi && seconds > MAX_REAL_WAIT_S) return false;
    if (!this.ctx.controlApi) this.ctx.log(`ratelimit: waiting ${seconds} s for the other key's window to reset`);
    await advance(this.ctx, seconds * 1000 + (this.ctx.controlApi ? 0 : 250));
    const last = this.ctx.client.exchanges().at(-1);
    if (this.ctx.controlApi && last && !this.log.includes(last)) this.log.push(last);
    return true;
  }

  private probes(): Probe[] {
    const auth = { key: "other" as const };
    return [
      { name: "GET /v2/pods", rest: true, spec: { method: "GET", url: restUrl(this.ctx, "/v2/pods"), auth } },
      { name: "GET health", rest: false, spec: { method: "GET", url: jobUrl(this.ctx, "health"), auth } },
    ];
  }

  /**
   * The first probe that answers 2xx with a readable RateLimit and is counted (a second answer
   * shows a lower remaining count), waiting out one earlier 429.
   */
  private async choose(): Promise<{ probe: Probe; first: Answer; tooMany?: Answer } | string> {
    for (const probe of this.probes()) {
      let a = await this.send(probe.spec);
      if (a.res.status === 429) {
        const s = retryAfterSeconds(a.res) ?? Math.max(1, ...spentWindows(limitsOf(a.res.headers)).map((w) => w.reset ?? 60));
        if (!(await this.wait(s))) return `the other key was already rate limited, for ${s} s: longer than the ${MAX_REAL_WAIT_S} s this suite waits`;
        a = await this.send(probe.spec);
      }
      if (!is2xx(a.res.status) || !limitsOf(a.res.headers)) continue;
      // Where the suite moves the clock, a window that other requests of the key already drew on
      // (the run's first read with each key, key-check.ts) is let reset first: the failure's
      // replay then spends it from a fresh window, as it will when it is run.
      const reset = this.ctx.controlApi ? drawnOnReset(a.res.headers) : undefined;
      if (reset !== undefined && (await this.wait(reset))) a = await this.send(probe.spec);
      if (!is2xx(a.res.status) || !limitsOf(a.res.headers)) continue;
      const b = await this.send(probe.spec);
      if (b.res.status === 429) return { probe, first: a, tooMany: b };
      const before = limitsOf(a.res.headers)!;
      const after = is2xx(b.res.status) ? limitsOf(b.res.headers) : undefined;
      if (after && [...after.values()].some((w) => w.remaining !== undefined && w.remaining < (before.get(w.name)?.remaining ?? 0))) return { probe, first: b };
    }
    return "neither GET /v2/pods nor the job endpoint's health answered the other key with 2xx, a readable RateLimit header and a remaining count that fell on the next request: no window to count down";
  }

  async run(): Promise<ExhaustionVerdicts> {
    const chosen = await this.choose();
    if (typeof chosen === "string") return skipAll(chosen);
    const { probe, first } = chosen;
    if (chosen.tooMany) {
      try {
        return await this.judge429(probe, first, chosen.tooMany);
      } finally {
        await this.restore(probe);
      }
    }
    const windows = [...limitsOf(first.res.headers)!.values()].filter((w) => w.remaining !== undefined);
    const binding = windows.sort((a, b) => (a.remaining as number) - (b.remaining as number))[0];
    if (!binding) return skipAll("the other key's RateLimit header gives no remaining count r: no window to count down");
    if ((binding.remaining as number) > EXHAUSTION_BOUND) {
      return skipAll(
        `the other key's smallest window ("${binding.name}") has ${binding.remaining} requests left, more than the ${EXHAUSTION_BOUND} this suite sends to spend one; give --other-api-key a key with a smaller quota to check this rule`,
      );
    }
    try {
      return await this.spend(probe, first, binding.name, (binding.remaining as number) + 5);
    } finally {
      await this.restore(probe);
    }
  }

  private async spend(probe: Probe, first: Answer, window: string, planned: number): Promise<ExhaustionVerdicts> {
    let prev = first;
    let limit = planned;
    /** The first 2xx after a spent window that a sliding window's returned room may explain. */
    let servedSpent: { answer: Answer; before: Answer } | undefined;
    for (let i = 0; i < limit; i++) {
      const cur = await this.send(probe.spec);
      const prevLimits = limitsOf(prev.res.headers)!;
      if (cur.res.status === 429) return this.judge429(probe, prev, cur);
      if (!is2xx(cur.res.status)) return skipAll(`while spending the other key's window, ${probe.name} answered ${cur.res.status}`);
      const spent = spentWindows(prevLimits).filter((w) => w.reset !== undefined && cur.at - prev.at < (w.reset - 1) * 1000);
      const curLimitsSeen = limitsOf(cur.res.headers);
      if (curLimitsSeen) noteGiveBack(this.ctx, windowSteps(prevLimits, curLimitsSeen, cur.at - prev.at));
      if (spent.length && mayGiveBack(prev.res.headers, spent, curLimitsSeen, givesBackEarly(this.ctx))) {
        // The room of one request may have come back (a sliding window counted to its whole return): send on.
        servedSpent ??= { answer: cur, before: prev };
        prev = cur;
        continue;
      }
      if (spent.length) {
        const noRetry = skip("no 429 was provoked: the target went on answering after a window was spent (see ratelimit.429-when-spent)");
        return {
          whenSpent: fail({
            expected: `${WHEN}; the previous answer reported ${spent.map((w) => `"${w.name}"`).join(", ")} spent (${describe(prevLimits)}), yet ${probe.name} answered ${cur.res.status}`,
            exchange: cur.res.exchange,
            sequence: this.before(cur),
          }),
          retryAfter: noRetry,
          detail: noRetry,
        };
      }
      const curLimits = limitsOf(cur.res.headers);
      if (!curLimits) return skipAll(`while spending the other key's window, an answer to ${probe.name} had no readable RateLimit header`);
      // The window reset meanwhile (real time passes against real targets): spend the new one, within the bound.
      const now = curLimits.get(window)?.remaining;
      const was = prevLimits.get(window)?.remaining;
      if (now !== undefined && was !== undefined && now > was) limit = Math.min(2 * EXHAUSTION_BOUND, i + now + 5);
      prev = cur;
    }
    if (servedSpent) {
      const noRetry = skip("no 429 was provoked: the target went on answering after a window was spent (see ratelimit.429-when-spent)");
      return {
        whenSpent: fail({
          expected: `${WHEN}; the answer before reported a window spent (${describe(limitsOf(servedSpent.before.res.headers)!)}), yet ${probe.name} was served then and on, ${limit} requests in all without a 429 (a sliding window may give a request's room back before t, never a whole run of them at once)`,
          exchange: servedSpent.answer.res.exchange,
          sequence: this.before(servedSpent.answer),
        }),
        retryAfter: noRetry,
        detail: noRetry,
      };
    }
    const none = skip(`${limit} requests of the other key never spent a window (remaining never reached 0; see ratelimit.remaining-decreases)`);
    return { whenSpent: none, retryAfter: none, detail: none };
  }

  private async judge429(probe: Probe, prev: Answer, tooMany: Answer): Promise<ExhaustionVerdicts> {
    const prevLimits = limitsOf(prev.res.headers)!;
    const ownLimits = limitsOf(tooMany.res.headers);
    const spent = [...new Set([...spentWindows(prevLimits), ...spentWindows(ownLimits)].map((w) => w.name))];
    const whenSpent = spentWindows(prevLimits).length
      ? pass
      : fail({
          expected: `${WHEN}; the previous answer reported requests left in every window (${describe(prevLimits)}), yet ${probe.name} answered 429`,
          exchange: tooMany.res.exchange,
          sequence: this.before(tooMany),
        });

    // Before waiting: the detail of a REST 429 needs the window still spent.
    const detail = await this.judgeDetail(probe, tooMany, spent);

    const problems: string[] = [];
    const raText = tooMany.res.headers["retry-after"];
    const ra = retryAfterSeconds(tooMany.res);
    if (raText === undefined) problems.push("no Retry-After header");
    else if (ra === undefined) problems.push(`Retry-After ${JSON.stringify(raText)} is not an integer number of seconds`);
    if (!tooMany.res.headers["ratelimit"]) problems.push("no RateLimit header");
    if (!tooMany.res.headers["ratelimit-policy"]) problems.push("no RateLimit-Policy header");
    const resets = spent.map((n) => ownLimits?.get(n)?.reset).filter((t): t is number => t !== undefined);
    const reset = resets.length ? Math.max(...resets) : undefined;
    let retryAfter: Verdict = problems.length
      ? fail({ expected: `${RETRY}; ${problems.join("; ")}`, exchange: tooMany.res.exchange, sequence: this.before(tooMany) })
      : pass;

    const waitS = ra ?? reset;
    if (waitS === undefined) return { whenSpent, retryAfter, detail };
    if (!(await this.wait(waitS))) {
      if (retryAfter.kind === "pass") retryAfter = skip(`Retry-After is ${waitS} s, longer than the ${MAX_REAL_WAIT_S} s this suite waits in real time; its header form and its value against t were checked`);
      return { whenSpent, retryAfter, detail };
    }
    const after = await this.send(probe.spec);
    if (after.res.status === 429 && retryAfter.kind !== "fail") {
      retryAfter = fail({
        expected: `${RETRY}; the same request sent ${waitS} s later (after the Retry-After wait) still answered 429, so Retry-After came before the window's reset`,
        exchange: after.res.exchange,
        sequence: this.before(after),
      });
    }
    return { whenSpent, retryAfter, detail };
  }

  private async judgeDetail(probe: Probe, tooMany: Answer, spent: readonly string[]): Promise<Verdict> {
    let answer = tooMany;
    if (!probe.rest) {
      const gpu = await gpuChoice(this.ctx);
      if (!gpu) return skip("the 429 came from a job endpoint, and a REST 429 needs a createPod body, but the target's catalog has no GPU type in stock");
      answer = await this.send({ method: "POST", url: restUrl(this.ctx, "/v2/pods"), json: podBody(gpu, "cpsim-ratelimit"), auth: { key: "other" } });
      const id = stringField(answer.res.json, "id");
      if (is2xx(answer.res.status) && id) await terminatePod(this.ctx, id, "other");
      if (answer.res.status !== 429) {
        return skip(`after the job endpoints' window was spent, createPod by the same user answered ${answer.res.status}, not 429: this target counts REST requests apart, and spending that count would take createPod requests`);
      }
    }
    const problems = problemIssues(answer.res);
    const detail = stringField(answer.res.json, "detail");
    const names = spent.length ? spent : ["minute", "hour", "day"];
    const named = detail !== undefined && names.some((n) => new RegExp(`\\b${n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\b`, "i").test(detail));
    if (!named) problems.push(`detail ${JSON.stringify(detail ?? null)} names none of the spent window(s) ${names.map((n) => `"${n}"`).join(", ")}`);
    if (!problems.length) return pass;
    return fail({ expected: `${DETAIL}, with ${problemText(429)}; ${problems.join("; ")}`, exchange: answer.res.exchange, sequence: this.before(answer) });
  }

  /** Leaves the other key usable: once its last answer shows nothing spent, or virtual time moved past the reset. */
  private async restore(probe: Probe): Promise<void> {
    const last = [...this.log].reverse().find((e) => e.response && e.request.url === probe.spec.url);
    const headers = last?.response?.headers ?? {};
    const spent = spentWindows(limitsOf(headers));
    if (last?.response?.status !== 429 && spent.length === 0) return;
    if (!this.ctx.controlApi) return;
    const fromHeader = Number(headers["retry-after"]);
    const s = Number.isInteger(fromHeader) && fromHeader > 0 ? fromHeader : Math.max(60, ...spent.map((w) => w.reset ?? 0));
    await advance(this.ctx, s * 1000);
    await this.ctx.client.request(probe.spec);
  }
}

/**
 * The reset (seconds) of the latest-resetting window within the exhaustion bound that shows
 * requests spent before this answer's own (remaining below quota - 1), or undefined when none does.
 */
function drawnOnReset(headers: Readonly<Record<string, string>>): number | undefined {
  const limits = limitsOf(headers);
  const policy = readPolicy(headers["ratelimit-policy"]);
  if (!limits || !policy.ok) return undefined;
  const resets = policy.members
    .map((p) => ({ p, w: limits.get(p.name) }))
    .filter(({ p, w }) => p.quota !== undefined && w?.remaining !== undefined && w.reset !== undefined && p.quota <= EXHAUSTION_BOUND && w.remaining < p.quota - 1)
    .map(({ w }) => w!.reset as number);
  return resets.length ? Math.max(...resets) : undefined;
}
