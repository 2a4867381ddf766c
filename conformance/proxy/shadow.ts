/**
 * Shadow mode: each exchange the client made with the target is, once the target answered it,
 * also sent to a second implementation (the shadow), and the two answers are compared on what
 * the spec fixes (shadow-compare.ts). The client never waits for the shadow and never sees its
 * answer: an exchange is offered after the client has its own, into a bounded queue; a full
 * queue, a shadow slower than --shadow-timeout or failing drops the exchange (counted), and a
 * request naming an object the shadow never saw is not sent (counted). Writes go to the shadow
 * only with --shadow-writes; the ids the two implementations gave the same object are mapped
 * (shadow-route.ts), so a later read of it means the same thing at both.
 */
import { Agent, request } from "undici";
import type { ShadowDifferenceRecord, ShadowRecord } from "../../reports/conformance-report.ts";
import type { SeenExchange, Surface } from "../passive/answer.ts";
import type { Operation } from "../passive/classify.ts";
import type { Profile } from "../passive/error-body.ts";
import { now } from "./capture.ts";
import type { Flow } from "./forward.ts";
import { seenFromFlow } from "./record-flow.ts";
import { compareAnswers, ruleVerdicts, type RuleVerdicts } from "./shadow-compare.ts";
import { IdMap, pathObjectId, shadowKind, withEndpoint } from "./shadow-route.ts";

/** The second implementation: where its REST and job endpoints are, and what keys it knows. */
export interface ShadowTarget {
  readonly rest: string;
  readonly serverless: string;
  /** How the report names it. */
  readonly name: string;
  /** Keys it accepts as they are; a client's other key is replaced by `key` (the embedded emulator's). */
  readonly knownKeys?: readonly string[];
  /** The key sent in place of a client's (absent: the client's own is sent). */
  readonly key?: string;
  close(): Promise<void>;
}

export interface ShadowOptions {
  readonly writes: boolean;
  readonly queue: number;
  readonly concurrency: number;
  readonly timeoutMs: number;
  readonly endpoint?: string;
  readonly profile: Profile;
  /** Bytes of the shadow's answer kept for judging, as of the target's. */
  readonly captureBytes: number;
}

/** A request body larger than this is not copied to the shadow (the queue's memory stays bounded). */
export const SHADOW_BODY_BYTES = 256 * 1024;
/** Differences described in the report; the rest are counted by rule. */
const KEPT_DIFFERENCES = 100;
/** Once stopping, how long the requests at the shadow may still take. */
const STOP_GRACE_MS = 10_000;

const DROP_HEADERS = new Set(["host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization", "proxy-connection", "expect"]);

interface Item {
  readonly seq: number;
  readonly surface: Surface;
  readonly op: Operation;
  readonly flow: Flow;
  readonly path: string;
  readonly target: { status: number; verdicts: RuleVerdicts; clientProblem: boolean };
  /** For a write: hands the shadow's answer to the id map (undefined: it gave none). */
  readonly learn?: (shadowJson: unknown) => void;
}

function joinHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in h) {
    const v = h[k];
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** The request path as a report may show it: the `api_key` query redacted. */
function shownPath(path: string): string {
  return path.replace(/([?&]api_key=)[^&]*/gi, "$1${CPSIM_API_KEY}");
}

export class Shadow {
  private readonly agent: Agent;
  private readonly ids = new IdMap();
  private readonly waiting: Item[] = [];
  private readonly active = new Set<AbortController>();
  private activeDone: Promise<void>[] = [];
  private stopping = false;
  private readonly counts = {
    sent: 0,
    compared: 0,
    differing: 0,
    skipped: { writes: 0, unknownObject: 0, largeBody: 0, noTargetAnswer: 0 },
    dropped: { queueFull: 0, timeout: 0, error: 0, atStop: 0 },
  };
  private readonly byRule = new Map<string, { count: number; first: ShadowDifferenceRecord }>();
  private readonly kept: ShadowDifferenceRecord[] = [];

  constructor(
    readonly target: ShadowTarget,
    readonly options: ShadowOptions,
    private readonly onDifference: (d: ShadowDifferenceRecord) => void = () => {},
  ) {
    this.agent = new Agent({ connections: options.concurrency * 2, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs, keepAliveTimeout: 10_000 });
  }

  /** Items waiting or at the shadow. */
  get load(): number {
    return this.waiting.length + this.active.size;
  }

  /** The exchange the target answered, judged: sent to the shadow too when it should be. Never waits. */
  offer(flow: Flow, seen: SeenExchange, op: Operation, surface: Surface): void {
    if (this.stopping) return;
    const kind = shadowKind(flow.method, seen.request.path, op, flow.requestText);
    if (kind === undefined) return;
    if (kind === "write" && !this.options.writes) {
      this.counts.skipped.writes++;
      return;
    }
    if (!flow.response || flow.error !== undefined) {
      this.counts.skipped.noTargetAnswer++;
      return;
    }
    if (flow.requestTruncated || flow.requestSize > SHADOW_BODY_BYTES) {
      this.counts.skipped.largeBody++;
      return;
    }
    if (this.load >= this.options.queue) {
      this.counts.dropped.queueFull++;
      return;
    }
    const { verdicts, clientProblem } = ruleVerdicts(seen, op, this.options.profile);
    // A write's ids are known now, before the shadow answers: a read of them queued after it waits for its answer.
    const learn = kind === "write" && flow.response.status < 300 ? this.ids.expect(seen.answer?.json) : undefined;
    this.waiting.push({
      seq: seen.seq,
      surface,
      op,
      flow: { ...flow, response: { ...flow.response, text: "" } },
      path: flow.path,
      target: { status: flow.response.status, verdicts, clientProblem },
      ...(learn ? { learn } : {}),
    });
    this.pump();
  }

  private pump(): void {
    while (!this.stopping && this.active.size < this.options.concurrency && this.waiting.length > 0) {
      const item = this.waiting.shift()!;
      const abort = new AbortController();
      this.active.add(abort);
      const done = this.run(item, abort.signal)
        .catch(() => {})
        .finally(() => {
          this.active.delete(abort);
          this.activeDone = this.activeDone.filter((p) => p !== done);
          this.pump();
        });
      this.activeDone.push(done);
    }
  }

  private headersFor(flow: Flow): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of Object.entries(flow.requestHeaders)) if (!DROP_HEADERS.has(k)) out[k] = v;
    const replacement = this.target.key;
    if (replacement !== undefined && out["authorization"] !== undefined) {
      const m = /^\s*bearer\s+(.+?)\s*$/i.exec(out["authorization"]);
      const given = m ? m[1] : out["authorization"].trim();
      if (!this.target.knownKeys?.includes(given)) out["authorization"] = `Bearer ${replacement}`;
    }
    return out;
  }

  private queryKey(path: string): string {
    const replacement = this.target.key;
    if (replacement === undefined) return path;
    return path.replace(/([?&]api_key=)([^&]*)/gi, (whole, lead: string, given: string) => {
      let key = given;
      try {
        key = decodeURIComponent(given);
      } catch {
        // kept as sent
      }
      return this.target.knownKeys?.includes(key) ? whole : `${lead}${encodeURIComponent(replacement)}`;
    });
  }

  private async run(item: Item, signal: AbortSignal): Promise<void> {
    const { flow, op } = item;
    const objectId = pathObjectId(op);
    if (objectId !== undefined && (await this.ids.shadowIdOf(objectId)) === undefined) {
      this.counts.skipped.unknownObject++;
      item.learn?.(undefined);
      return;
    }
    const base = item.surface === "serverless" ? this.target.serverless : this.target.rest;
    const path = this.queryKey(withEndpoint(this.ids.rewritePath(item.path), op, this.options.endpoint));
    const body = flow.requestSize > 0 ? this.ids.rewriteText(flow.requestText) : undefined;
    const url = `${base.replace(/\/$/, "")}${path}`;
    this.counts.sent++;
    const sentAt = now();
    const timeout = AbortSignal.timeout(this.options.timeoutMs);
    let status: number;
    let headers: Record<string, string>;
    let text = "";
    let size = 0;
    let truncated = false;
    try {
      const res = await request(url, {
        dispatcher: this.agent,
        method: flow.method as "GET",
        headers: this.headersFor(flow),
        ...(body !== undefined ? { body } : {}),
        signal: AbortSignal.any([signal, timeout]),
      });
      status = res.statusCode;
      headers = joinHeaders(res.headers);
      const parts: Buffer[] = [];
      let keptBytes = 0;
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (keptBytes < this.options.captureBytes) {
          const piece = chunk.subarray(0, this.options.captureBytes - keptBytes);
          parts.push(piece);
          keptBytes += piece.length;
        } else truncated = true;
      }
      text = Buffer.concat(parts).toString("utf8");
    } catch (err) {
      item.learn?.(undefined);
      if (signal.aborted) this.counts.dropped.atStop++;
      else if (timeout.aborted || (err as Error).name === "TimeoutError" || /timeout/i.test((err as Error).message)) this.counts.dropped.timeout++;
      else this.counts.dropped.error++;
      return;
    }
    const shadowFlow: Flow = {
      method: flow.method,
      path,
      upstreamUrl: url,
      requestHeaders: this.headersFor(flow),
      requestText: body ?? "",
      requestSize: body === undefined ? 0 : Buffer.byteLength(body),
      requestTruncated: false,
      sentAt,
      answeredAt: now(),
      response: { status, headers, text, size, truncated },
    };
    const seen = seenFromFlow(shadowFlow, item.seq, item.surface);
    item.learn?.(seen.answer?.json);
    const { verdicts } = ruleVerdicts(seen, op, this.options.profile);
    this.counts.compared++;
    const diffs = compareAnswers(op, item.target, { status, verdicts });
    if (diffs.length > 0) this.counts.differing++;
    for (const d of diffs) {
      const record: ShadowDifferenceRecord = {
        exchange: item.seq,
        method: flow.method,
        path: shownPath(item.path),
        rule: d.rule,
        targetStatus: item.target.status,
        shadowStatus: status,
        target: d.target,
        shadow: d.shadow,
      };
      const tally = this.byRule.get(d.rule);
      if (tally) tally.count++;
      else this.byRule.set(d.rule, { count: 1, first: record });
      if (this.kept.length < KEPT_DIFFERENCES) this.kept.push(record);
      this.onDifference(record);
    }
  }

  /** Waits until nothing is waiting or at the shadow (for tests and the stop). */
  async settled(): Promise<void> {
    while (this.activeDone.length > 0) await Promise.all(this.activeDone);
  }

  /**
   * Stops: what waits is dropped (counted), what is at the shadow gets a grace to finish (none
   * when `forced`), then the connections close. The target's side is never waited on here.
   */
  async stop(forced = false): Promise<void> {
    this.stopping = true;
    this.counts.dropped.atStop += this.waiting.length;
    for (const item of this.waiting.splice(0)) item.learn?.(undefined);
    const grace = setTimeout(() => {
      for (const a of this.active) a.abort();
    }, forced ? 0 : STOP_GRACE_MS);
    await Promise.all(this.activeDone);
    clearTimeout(grace);
    await this.agent.close().catch(() => {});
    await this.target.close().catch(() => {});
  }

  record(): ShadowRecord {
    const c = this.counts;
    return {
      shadow: this.target.name,
      writes: this.options.writes,
      sent: c.sent,
      compared: c.compared,
      differing: c.differing,
      skipped: { ...c.skipped },
      dropped: { ...c.dropped },
      rules: [...this.byRule].map(([id, t]) => ({ id, count: t.count, first: t.first })).sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)),
      differences: [...this.kept],
    };
  }
}
