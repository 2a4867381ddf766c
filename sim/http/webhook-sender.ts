/**
 * Delivers the webhook POSTs the model says fell due, with undici, and reports each outcome back
 * so the model can schedule its bounded retries. A delivery goes to exactly the URL the job gave
 * (no redirects followed), carries only the JSON body, and never throws: a refused connection,
 * a timeout, a non-2xx answer or a bad URL all count as "not delivered".
 */
import { Agent, request } from "undici";
import type { WebhookDelivery } from "./backend.ts";
import { makeParts, unmadeParts } from "./lazy-render.ts";

export interface WebhookSenderOptions {
  readonly timeoutMs: number;
  readonly maxInFlight: number;
  readonly maxQueue: number;
  /** Called once per delivery with its outcome (after the HTTP exchange ends). */
  readonly onResult: (delivery: WebhookDelivery, ok: boolean) => void;
}

export class WebhookSender {
  private readonly queue: WebhookDelivery[] = [];
  private inFlight = 0;
  private readonly agent: Agent;
  private readonly controller = new AbortController();
  private idleWaiters: (() => void)[] = [];
  private closed = false;
  /** Deliveries sent, and how many of them were answered 2xx, for diagnostics. */
  sent = 0;
  delivered = 0;

  constructor(private readonly options: WebhookSenderOptions) {
    this.agent = new Agent({
      connect: { timeout: options.timeoutMs },
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
      keepAliveTimeout: 1_000,
      connections: options.maxInFlight,
    });
  }

  get pending(): number {
    return this.queue.length + this.inFlight;
  }

  enqueue(deliveries: readonly WebhookDelivery[]): void {
    for (const d of deliveries) {
      if (this.closed || this.queue.length >= this.options.maxQueue) {
        // Dropping is a failed attempt, not a lost one: the model decides whether to retry.
        this.report(d, false);
        continue;
      }
      this.queue.push(d);
    }
    this.pump();
  }

  /** Resolves when nothing is queued or in flight (or after `timeoutMs`, whichever is first). */
  idle(timeoutMs: number): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      timer.unref();
      const waiter = (): void => done();
      this.idleWaiters.push(waiter);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
    });
  }

  /** Forgets queued deliveries (after a reset); those in flight finish but are not reported. */
  clear(): WebhookDelivery[] {
    return this.queue.splice(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    this.controller.abort();
    await this.agent.close().catch(() => undefined);
    this.notifyIdle();
  }

  private pump(): void {
    while (!this.closed && this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const d = this.queue.shift() as WebhookDelivery;
      this.inFlight++;
      void this.deliver(d).then((ok) => {
        this.inFlight--;
        if (!this.closed) this.report(d, ok);
        this.pump();
        if (this.pending === 0) this.notifyIdle();
      });
    }
  }

  private async deliver(d: WebhookDelivery): Promise<boolean> {
    let url: URL;
    try {
      url = new URL(d.url);
    } catch {
      return false;
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") return false;
    this.sent++;
    try {
      // An image job's pictures are made on a worker thread, not on the event loop.
      await makeParts(unmadeParts(d.body));
      const res = await request(url, {
        method: "POST",
        dispatcher: this.agent,
        headers: { "content-type": "application/json", "user-agent": "cpsim-emulator-webhook" },
        body: JSON.stringify(d.body),
        signal: this.controller.signal,
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
      });
      await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      if (ok) this.delivered++;
      return ok;
    } catch {
      return false;
    }
  }

  private report(d: WebhookDelivery, ok: boolean): void {
    try {
      this.options.onResult(d, ok);
    } catch {
      // The model's bookkeeping failing must not take the sender down with it.
    }
  }

  private notifyIdle(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
