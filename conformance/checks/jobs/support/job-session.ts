/**
 * A check's conversation with the job endpoints: every request it makes (with the full-access
 * key), the time it lets pass, the jobs it submitted and what it saw of them. Time is virtual on
 * a target with the emulator's control API (advanced at once, so a check of minutes takes
 * milliseconds) and real elsewhere; `now()` reads whichever applies. The session keeps its own
 * ordered list of exchanges, so a failure can carry the whole sequence that led to it, with the
 * job ids read back from the answers that gave them, and it cancels what it left running.
 */
import type { CheckContext, FailureInput } from "../../../check.ts";
import type { Auth, ClientResponse, RequestSpec } from "../../../client.ts";
import type { CurlCapture } from "../../../curl.ts";
import { TargetError } from "../../../errors.ts";
import type { Exchange } from "../../../recorder.ts";
import { DEFAULT_MAX_PAUSE_MS, describeWait, FIRST_PAUSE_MS } from "../../support/poll.ts";
import { MAX_ADVANCE_MS, pause, waitIsOver } from "../../support/time.ts";
import { asJob, isFinal, isJobStatus, isObject, type JobBody } from "./job-body.ts";
import { JobTrace } from "./job-trace.ts";
import { noteRead } from "./target-timings.ts";

export type Query = Readonly<Record<string, string | number | undefined>>;

/** An answer of run or runsync: the response, and the job id and body when it gave them. */
export interface Submission {
  readonly res: ClientResponse;
  readonly id?: string;
  readonly job?: JobBody;
}

export interface PollResult {
  readonly res: ClientResponse;
  readonly job?: JobBody;
  /** Whether the condition was met within the budget. */
  readonly met: boolean;
}

export interface PollOptions {
  /** Time allowed, in the session's time (virtual or real) milliseconds. */
  readonly budgetMs: number;
  /** Virtual time advanced between polls (default 1000). */
  readonly stepMs?: number;
  /** The longest real pause between polls against a target without the control API (default 2000); pauses start at 100 ms and grow. */
  readonly realStepMs?: number;
}

const AUTH: Auth = { key: "api" };
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function is2xx(res: { readonly status: number }): boolean {
  return res.status >= 200 && res.status < 300;
}

export class JobSession {
  readonly trace: JobTrace;
  /** Every exchange of the session, in the order a replay must send them. */
  readonly exchanges: Exchange[] = [];
  /** Jobs submitted, with the index of the exchange whose answer named each. */
  private readonly submittedJobs: { readonly id: string; readonly at: number }[] = [];
  private virtualMs = 0;

  constructor(
    readonly ctx: CheckContext,
    readonly endpoint: string = ctx.target.endpoint,
  ) {
    this.trace = new JobTrace(ctx);
  }

  /** Whether time is the emulator's virtual time, moved by `advance`. */
  get virtual(): boolean {
    return this.ctx.controlApi;
  }

  /** Milliseconds on the session's clock: virtual time advanced so far, or the wall clock. */
  now(): number {
    return this.virtual ? this.virtualMs : Date.now();
  }

  get jobIds(): readonly string[] {
    return this.submittedJobs.map((j) => j.id);
  }

  url(op: string, jobId?: string, endpoint: string = this.endpoint): string {
    const base = this.ctx.target.serverless.replace(/\/+$/, "");
    return `${base}/v2/${encodeURIComponent(endpoint)}/${op}${jobId === undefined ? "" : `/${encodeURIComponent(jobId)}`}`;
  }

  async send(spec: Omit<RequestSpec, "auth"> & { readonly auth?: Auth }): Promise<ClientResponse> {
    const res = await this.ctx.client.request({ auth: AUTH, ...spec });
    this.exchanges.push(res.exchange);
    return res;
  }

  /**
   * Lets `ms` pass: one control-API advance (recorded, so a replay moves the clock too), or a
   * real sleep. Written here rather than through support/time.ts to keep the advance's exchange.
   */
  async advance(ms: number): Promise<void> {
    const amount = Math.max(0, Math.min(MAX_ADVANCE_MS, Math.round(ms)));
    // Once the check is over (a cut run goes on unawaited) time is left alone: it is the next check's.
    if (this.ctx.signal.aborted) return;
    if (!this.virtual) {
      await pause(Math.min(amount, Math.max(0, this.ctx.deadline - Date.now())), this.ctx.signal);
      return;
    }
    const res = await this.ctx.client.request({ method: "POST", url: new URL("/_sim/clock/advance", this.ctx.target.rest).href, json: { ms: amount } });
    if (res.status !== 200) throw new Error(`the control API answered ${res.status} to an advance of ${amount} ms: ${res.text.slice(0, 200)}`);
    this.exchanges.push(res.exchange);
    this.virtualMs += amount;
  }

  // --- submission -------------------------------------------------------------------------

  private noteSubmission(res: ClientResponse, at: number, observed: boolean): Submission {
    const body = isObject(res.json) ? res.json : undefined;
    const id = body && typeof body["id"] === "string" && body["id"] !== "" ? (body["id"] as string) : undefined;
    const job = asJob(res.json);
    if (!is2xx(res) || id === undefined) return { res, ...(job ? { job } : {}) };
    this.submittedJobs.push({ id, at });
    const status = job?.status ?? "IN_QUEUE";
    if (observed) this.trace.submitted(id, status);
    else {
      // runsync: the job was submitted unseen; what the answer shows is an observation.
      this.trace.submitted(id, "IN_QUEUE", false);
      if (isJobStatus(status)) this.trace.observed(id, status, res.exchange);
    }
    return { res, id, ...(job ? { job } : {}) };
  }

  /** POST run with `{input, ...extra}`. */
  async run(input: unknown, extra: Readonly<Record<string, unknown>> = {}, endpoint?: string): Promise<Submission> {
    const res = await this.send({ method: "POST", url: this.url("run", undefined, endpoint), json: { input, ...extra } });
    return this.noteSubmission(res, this.exchanges.length - 1, true);
  }

  /**
   * POST run or runsync with any body: a string is sent as it is (payload limits), anything else
   * as JSON (bodies that break a rule).
   */
  async runRaw(body: unknown, op: "run" | "runsync" = "run", query?: Query): Promise<Submission> {
    const spec: RequestSpec =
      typeof body === "string"
        ? { method: "POST", url: this.url(op), body, headers: { "content-type": "application/json" }, ...(query ? { query } : {}) }
        : { method: "POST", url: this.url(op), json: body, ...(query ? { query } : {}) };
    if (op === "runsync") return this.waiting(spec, query);
    const res = await this.send(spec);
    return this.noteSubmission(res, this.exchanges.length - 1, true);
  }

  /**
   * POST runsync with `{input, ...extra}`, letting time pass while it waits: on virtual time, up
   * to its `wait` (or `advanceUpToMs`, for a check of how long a target really waits).
   */
  async runsync(
    input: unknown,
    options: { readonly query?: Query; readonly extra?: Readonly<Record<string, unknown>>; readonly endpoint?: string; readonly stepMs?: number; readonly advanceUpToMs?: number } = {},
  ): Promise<Submission> {
    const spec: RequestSpec = {
      method: "POST",
      url: this.url("runsync", undefined, options.endpoint),
      json: { input, ...(options.extra ?? {}) },
      ...(options.query ? { query: options.query } : {}),
    };
    return this.waiting(spec, options.query, options.stepMs, options.advanceUpToMs);
  }

  /** GET status-sync/{id}?wait=, letting time pass while it waits. */
  async statusSync(id: string, query: Query, stepMs?: number): Promise<ClientResponse> {
    const res = await this.whileAdvancing({ method: "GET", url: this.url("status-sync", id), query }, waitOf(query), stepMs);
    const job = asJob(res.json);
    if (is2xx(res) && job && isJobStatus(job.status)) this.trace.observed(id, job.status, res.exchange);
    return res;
  }

  private async waiting(spec: RequestSpec, query: Query | undefined, stepMs?: number, advanceUpToMs?: number): Promise<Submission> {
    const at = this.exchanges.length;
    const res = await this.whileAdvancing(spec, advanceUpToMs ?? waitOf(query), stepMs);
    return this.noteSubmission(res, at, false);
  }

  /**
   * The target's count of waits ever parked (`waits_parked` of the control API's clock), if it
   * keeps one, and how long the read took (the target's round trip, which paces the wait below).
   */
  private async waitsParked(): Promise<{ parked?: number; ms: number }> {
    const started = Date.now();
    const res = await this.ctx.client.request({ method: "GET", url: new URL("/_sim/clock", this.ctx.target.rest).href });
    const parked = isObject(res.json) ? res.json["waits_parked"] : undefined;
    return { ...(res.status === 200 && typeof parked === "number" ? { parked } : {}), ms: Date.now() - started };
  }

  /**
   * Sends a request that waits for a job (runsync, status-sync). On the emulator's manual clock
   * it would wait forever, since virtual time only moves when told: so while it is in flight the
   * session moves the clock, in one wait (advanceUntilAnswered). Elsewhere it simply waits,
   * bounded by the wait plus a margin. The waiting request is recorded before the advances it
   * needed, in the order a replay sends them.
   */
  private async whileAdvancing(spec: RequestSpec, waitMs: number, stepMs = 1000): Promise<ClientResponse> {
    const timeoutMs = waitingRequestTimeoutMs(this.ctx, waitMs, this.virtual);
    if (!this.virtual) return this.send({ ...spec, timeoutMs });
    const slot = this.exchanges.length;
    this.exchanges.push(undefined as unknown as Exchange);
    const before = await this.waitsParked();
    let done = false;
    const pending = this.ctx.client.request({ auth: AUTH, ...spec, timeoutMs }).finally(() => {
      done = true;
    });
    const settled = pending.then(
      () => undefined,
      () => undefined,
    );
    try {
      await this.advanceUntilAnswered({ before: before.parked, roundTripMs: before.ms, settled, answered: () => done, waitMs, stepMs, timeoutMs });
      const res = await pending;
      this.exchanges[slot] = res.exchange;
      return res;
    } catch (err) {
      this.exchanges.splice(slot, 1);
      await settled;
      throw err;
    }
  }

  /**
   * One wait for a waiting request on the manual clock, polling for the state that says what to
   * do next. Until the target's count of parked waits shows the request parked, the count is
   * read again (pauses from 2 ms, doubling to 100 ms) and time does not move: advanced before the
   * request arrived (a 20 MB body can take seconds on a busy machine), the wait's budget would run
   * out before the wait began. A target that keeps no count, or has not shown the request parked
   * within the request's own timeout, counts as parked. Then a step at a time, every 5 ms, up to
   * the request's wait and a step more; past that (a request that reached a target keeping no
   * count after those advances) a step whenever a few of the target's measured round trips pass
   * without the answer (50 to 250 ms), until it comes or the check ends.
   */
  private async advanceUntilAnswered(w: {
    readonly before: number | undefined;
    readonly roundTripMs: number;
    readonly settled: Promise<void>;
    readonly answered: () => boolean;
    readonly waitMs: number;
    readonly stepMs: number;
    readonly timeoutMs: number;
  }): Promise<void> {
    const parkBy = Date.now() + w.timeoutMs;
    let parked = w.before === undefined;
    let roundTripMs = w.roundTripMs;
    let pauseMs = 2;
    let advanced = 0;
    while (!w.answered() && !this.ctx.signal.aborted) {
      if (!parked) {
        const read = Date.now() < parkBy ? await this.waitsParked() : undefined;
        roundTripMs = Math.max(roundTripMs, read?.ms ?? 0);
        parked = read?.parked === undefined || read.parked > w.before!;
        if (!parked) {
          await Promise.race([w.settled, realSleep(pauseMs)]);
          pauseMs = Math.min(100, pauseMs * 2);
          continue;
        }
      }
      const late = advanced > w.waitMs + w.stepMs;
      await Promise.race([w.settled, realSleep(late ? Math.min(250, Math.max(50, 4 * roundTripMs)) : 5)]);
      if (w.answered()) break;
      await this.advance(w.stepMs);
      advanced += w.stepMs;
    }
  }

  // --- reads and actions ------------------------------------------------------------------

  async status(id: string, query?: Query): Promise<ClientResponse> {
    const res = await this.send({ method: "GET", url: this.url("status", id), ...(query ? { query } : {}) });
    if (!this.virtual) noteRead(this.ctx, res.durationMs);
    const job = asJob(res.json);
    if (is2xx(res) && job && isJobStatus(job.status)) this.trace.observed(id, job.status, res.exchange);
    return res;
  }

  async cancel(id: string): Promise<ClientResponse> {
    const res = await this.send({ method: "POST", url: this.url("cancel", id) });
    const job = asJob(res.json);
    if (is2xx(res) && job) this.trace.cancelled(id, job.status, res.exchange, res.status);
    return res;
  }

  async retry(id: string): Promise<ClientResponse> {
    const res = await this.send({ method: "POST", url: this.url("retry", id) });
    const job = asJob(res.json);
    if (is2xx(res) && job) this.trace.retried(id, job.status, res.exchange, res.status);
    return res;
  }

  async stream(id: string): Promise<ClientResponse> {
    return this.send({ method: "GET", url: this.url("stream", id) });
  }

  async purge(): Promise<ClientResponse> {
    return this.send({ method: "POST", url: this.url("purge-queue") });
  }

  async health(endpoint?: string): Promise<ClientResponse> {
    return this.send({ method: "GET", url: this.url("health", undefined, endpoint) });
  }

  /**
   * Reads the job's status until `done` holds or the budget is spent, letting time pass between
   * reads. The last answer is returned either way.
   */
  async pollUntil(id: string, done: (job: JobBody | undefined, res: ClientResponse) => boolean, options: PollOptions): Promise<PollResult> {
    const start = this.now();
    // Virtual time: even steps (free). Real time: from 100 ms, growing (support/poll.ts).
    let step = this.virtual ? (options.stepMs ?? 1000) : FIRST_PAUSE_MS;
    const ceiling = options.realStepMs ?? DEFAULT_MAX_PAUSE_MS;
    for (;;) {
      const res = await this.status(id);
      const job = is2xx(res) ? asJob(res.json) : undefined;
      if (done(job, res)) return { res, ...(job ? { job } : {}), met: true };
      const spent = this.now() - start;
      if (spent >= options.budgetMs || waitIsOver(this.ctx)) return { res, ...(job ? { job } : {}), met: false };
      await this.advance(this.virtual ? step : Math.min(step, options.budgetMs - spent));
      if (!this.virtual) step = Math.min(ceiling, Math.round(step * 1.5));
    }
  }

  /** A wait's bound in words, for skip reasons. */
  bound(budgetMs: number): string {
    return describeWait(budgetMs, this.virtual);
  }

  /** Polls until the job is final (or gone: a 4xx). */
  untilFinal(id: string, options: PollOptions): Promise<PollResult> {
    return this.pollUntil(id, (job, res) => (job ? isFinal(job.status) : res.status >= 400 && res.status < 500), options);
  }

  /** Polls until the job shows one of `statuses`, or is final, or gone. */
  untilStatus(id: string, statuses: readonly string[], options: PollOptions): Promise<PollResult> {
    return this.pollUntil(id, (job, res) => (job ? statuses.includes(job.status) || isFinal(job.status) : res.status >= 400 && res.status < 500), options);
  }

  // --- evidence and clean-up ----------------------------------------------------------------

  /**
   * A failure shown by `exchange`, with every earlier exchange of the session as its sequence
   * (or only those given), and the job ids of earlier answers read back by the replay.
   */
  evidence(expected: string, exchange: Exchange, sequenceOnly?: readonly Exchange[]): FailureInput {
    const at = this.exchanges.lastIndexOf(exchange);
    const sequence = sequenceOnly ? [...sequenceOnly] : at < 0 ? [...this.exchanges] : this.exchanges.slice(0, at);
    const jobs = this.submittedJobs
      .map((j) => ({ id: j.id, at: sequence.indexOf(this.exchanges[j.at] as Exchange) }))
      .filter((j) => j.at >= 0);
    const captures: CurlCapture[] = jobs.map((j, n) => ({
      variable: jobs.length === 1 ? "JOB_ID" : `JOB_ID_${n + 1}`,
      fromRequest: j.at,
      field: "id",
      value: j.id,
    }));
    return { expected, exchange, ...(sequence.length ? { sequence } : {}), ...(captures.length ? { captures } : {}) };
  }

  /**
   * Cancels every job of the session not known to be final, so that it holds no worker and no
   * queue place when the next check runs. Best effort: errors here are not the rule's business.
   */
  async cleanup(): Promise<void> {
    for (const id of this.jobIds) {
      if (isFinal(this.trace.last(id))) continue;
      try {
        await this.ctx.client.request({ method: "POST", url: this.url("cancel", id), auth: AUTH });
      } catch (err) {
        if (!(err instanceof TargetError)) throw err;
      }
    }
  }
}

/**
 * How long the client waits for a request that waits for a job (runsync, status-sync): the run's
 * --timeout-ms, and in real time the request's own wait plus a margin.
 */
export function waitingRequestTimeoutMs(ctx: Pick<CheckContext, "options">, waitMs: number, virtual: boolean): number {
  return Math.max(ctx.options.timeoutMs, virtual ? 0 : waitMs + 30_000);
}

function waitOf(query: Query | undefined): number {
  const raw = query?.["wait"];
  const n = typeof raw === "number" ? raw : Number(raw);
  // An out-of-range or unreadable wait (a check of the wait rule) still needs a bound here.
  return Number.isFinite(n) && n >= 1000 && n <= 300_000 ? n : 90_000;
}
