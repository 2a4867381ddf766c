/**
 * TEST BACKEND: a small in-memory stand-in for the platform model, for the transport's own tests
 * and for measuring the transport alone. It is not the platform: it has no rules, no auth and no
 * rate limits. What it does have is what the transport must get right: routes with different body
 * limits, an echo, a route that throws, jobs that finish at a virtual time (so runsync and
 * status-sync wait), retention expiry, and webhooks with bounded retries.
 */
import type { Micros } from "../core/index.ts";
import { problem } from "../api/problem.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../api/types.ts";
import { respond } from "../api/types.ts";
import type { BackendApiKey, BackendOptions, BackendRoute, EmulatorBackend, WebhookDelivery } from "./backend.ts";
import { MinHeap } from "./min-heap.ts";

const MiB = 1024 * 1024;
const FINAL = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
/** Virtual time a job's result is kept after it is final (the run retention of choices.md). */
export const TEST_RETENTION_US = 30 * 60 * 1_000_000;
/** Delay before a failed webhook is tried again, and the number of attempts in all. */
export const TEST_WEBHOOK_RETRY_US = 1_000_000;
export const TEST_WEBHOOK_ATTEMPTS = 3;
const MAX_PODS = 10_000;

interface TestJob {
  readonly id: string;
  readonly endpointId: string;
  readonly input: unknown;
  readonly webhook?: string;
  status: string;
  output?: unknown;
  listeners?: (() => void)[];
}

type TestEvent =
  | { readonly kind: "finish"; readonly job: TestJob }
  | { readonly kind: "expire"; readonly job: TestJob }
  | { readonly kind: "webhook"; readonly delivery: WebhookDelivery };

export const testApiKeys: readonly BackendApiKey[] = [
  { key: "test-key-full-a", account: "acct-a", access: "full" },
  { key: "test-key-read-a", account: "acct-a", access: "read-only" },
  { key: "test-key-exempt", account: "load", access: "exempt" },
];

export class TestBackend implements EmulatorBackend {
  private time: Micros = 0;
  private events = new MinHeap<TestEvent>();
  private jobs = new Map<string, TestJob>();
  private pods = new Map<string, { id: string; name: string }>();
  private due: WebhookDelivery[] = [];
  private nextId = 1;
  /** Every request handled, for assertions. */
  readonly seen: ApiRequest[] = [];
  recordRequests = false;
  seed: number;

  constructor(options: Partial<BackendOptions> = {}) {
    this.seed = options.seed ?? 1;
  }

  now(): Micros {
    return this.time;
  }

  nextEventTime(): Micros | undefined {
    return this.events.peekKey();
  }

  advanceTo(time: Micros): void {
    for (;;) {
      const t = this.events.peekKey();
      if (t === undefined || t > time) break;
      const event = this.events.pop() as TestEvent;
      this.time = Math.max(this.time, t);
      this.apply(event);
    }
    this.time = Math.max(this.time, time);
  }

  private apply(event: TestEvent): void {
    switch (event.kind) {
      case "finish": {
        const job = event.job;
        if (FINAL.has(job.status)) return;
        const op = (job.input as { op?: string } | null)?.op;
        job.status = op === "fail" ? "FAILED" : "COMPLETED";
        job.output = op === "fail" ? undefined : job.input;
        this.final(job);
        return;
      }
      case "expire":
        this.jobs.delete(event.job.id);
        return;
      case "webhook":
        this.due.push(event.delivery);
        return;
    }
  }

  private final(job: TestJob): void {
    this.events.push(this.time + TEST_RETENTION_US, { kind: "expire", job });
    if (job.webhook !== undefined) this.due.push({ url: job.webhook, body: this.view(job), attempt: 1 });
    const listeners = job.listeners ?? [];
    job.listeners = undefined;
    for (const l of listeners) l();
  }

  onJobFinal(endpointId: string, jobId: string, listener: () => void): () => void {
    const job = this.jobs.get(jobId);
    if (job === undefined || job.endpointId !== endpointId) return () => undefined;
    if (FINAL.has(job.status)) {
      listener();
      return () => undefined;
    }
    (job.listeners ??= []).push(listener);
    return () => {
      if (job.listeners) job.listeners = job.listeners.filter((l) => l !== listener);
    };
  }

  drainWebhooks(): WebhookDelivery[] {
    if (this.due.length === 0) return [];
    return this.due.splice(0);
  }

  webhookResult(delivery: WebhookDelivery, ok: boolean): void {
    if (ok || delivery.attempt >= TEST_WEBHOOK_ATTEMPTS) return;
    this.events.push(this.time + TEST_WEBHOOK_RETRY_US, {
      kind: "webhook",
      delivery: { url: delivery.url, body: delivery.body, attempt: delivery.attempt + 1 },
    });
  }

  reset(seed: number): void {
    this.seed = seed;
    this.time = 0;
    this.events.clear();
    this.jobs.clear();
    this.pods.clear();
    this.due = [];
    this.nextId = 1;
  }

  apiKeys(): BackendApiKey[] {
    return [...testApiKeys];
  }

  routes(): BackendRoute[] {
    return [
      { method: "GET", pattern: "/v2/echo" },
      { method: "POST", pattern: "/v2/echo" },
      { method: "PUT", pattern: "/v2/echo" },
      { method: "GET", pattern: "/v2/boom" },
      { method: "GET", pattern: "/v2/pods" },
      { method: "POST", pattern: "/v2/pods" },
      { method: "GET", pattern: "/v2/pods/:podId" },
      { method: "PATCH", pattern: "/v2/pods/:podId" },
      { method: "DELETE", pattern: "/v2/pods/:podId" },
      { method: "POST", pattern: "/graphql" },
      { method: "POST", pattern: "/v2/:endpointId/run", bodyLimit: 10 * MiB },
      { method: "POST", pattern: "/v2/:endpointId/runsync", bodyLimit: 20 * MiB },
      { method: "GET", pattern: "/v2/:endpointId/status/:jobId" },
      { method: "GET", pattern: "/v2/:endpointId/status-sync/:jobId" },
      { method: "POST", pattern: "/v2/:endpointId/cancel/:jobId" },
    ];
  }

  handle(request: ApiRequest): ApiOutcome {
    if (this.recordRequests) this.seen.push(request);
    const parts = request.path.split("/");
    const m = request.method;
    if (request.path === "/v2/echo") {
      return respond(ok({ method: m, path: request.path, query: { ...request.query }, body: request.body ?? null, now_us: this.time }));
    }
    if (request.path === "/v2/boom") throw new Error("test backend: /v2/boom always throws");
    if (request.path === "/graphql") return respond(ok({ data: { echo: request.body ?? null } }));
    if (parts[2] === "pods") return respond(this.podRoute(request, parts[3]));
    const endpointId = parts[2];
    const op = parts[3];
    if (op === "run" || op === "runsync") {
      const body = request.body as { input?: unknown; webhook?: unknown } | undefined;
      if (body === undefined || typeof body !== "object" || body === null || typeof body.input !== "object" || body.input === null) {
        return respond(problem(400, 'the body must be {"input": {...}}'));
      }
      const job = this.submit(endpointId, body.input, typeof body.webhook === "string" ? body.webhook : undefined);
      if (op === "run") return respond(ok({ id: job.id, status: job.status }));
      return this.waitFor(job, request.query.wait);
    }
    const job = this.jobs.get(parts[4] ?? "");
    if (job === undefined || job.endpointId !== endpointId) return respond(problem(404, "no such job"));
    if (op === "status") return respond(ok(this.view(job)));
    if (op === "status-sync") return FINAL.has(job.status) ? respond(ok(this.view(job))) : this.waitFor(job, request.query.wait);
    if (op === "cancel") {
      if (!FINAL.has(job.status)) {
        job.status = "CANCELLED";
        this.final(job);
      }
      return respond(ok({ id: job.id, status: job.status }));
    }
    return respond(problem(404, "no such route in the test backend"));
  }

  private submit(endpointId: string, input: unknown, webhook: string | undefined): TestJob {
    const id = `job-${this.nextId++}`;
    const job: TestJob = { id, endpointId, input, webhook, status: "IN_QUEUE" };
    this.jobs.set(id, job);
    const msValue = (input as { ms?: unknown }).ms;
    const durationUs = typeof msValue === "number" && Number.isSafeInteger(msValue) && msValue >= 0 ? msValue * 1000 : 1_000_000;
    this.events.push(this.time + durationUs, { kind: "finish", job });
    return job;
  }

  private waitFor(job: TestJob, waitParam: string | undefined): ApiOutcome {
    const waitMs = waitParam === undefined ? 90_000 : Math.max(0, Math.min(300_000, Number(waitParam) || 0));
    return {
      kind: "wait",
      endpointId: job.endpointId,
      jobId: job.id,
      accountId: "acct-a",
      deadline: this.time + waitMs * 1000,
      render: () => ok(FINAL.has(job.status) ? this.view(job) : { id: job.id, status: job.status }),
    };
  }

  private view(job: TestJob): Record<string, unknown> {
    return job.output === undefined ? { id: job.id, status: job.status } : { id: job.id, status: job.status, output: job.output };
  }

  private podRoute(request: ApiRequest, podId: string | undefined): ApiResponse {
    if (podId === undefined) {
      if (request.method === "GET") return ok({ pods: [...this.pods.values()] });
      if (this.pods.size >= MAX_PODS) return problem(409, "the test backend holds at most 10000 pods");
      const name = (request.body as { name?: unknown } | undefined)?.name;
      const pod = { id: `pod-${this.nextId++}`, name: typeof name === "string" ? name : "unnamed" };
      this.pods.set(pod.id, pod);
      return { status: 201, headers: {}, body: pod };
    }
    const pod = this.pods.get(podId);
    if (pod === undefined) return problem(404, `no pod ${podId}`);
    if (request.method === "DELETE") {
      this.pods.delete(podId);
      return { status: 204, headers: {} };
    }
    return ok(pod);
  }
}

function ok(body: unknown): ApiResponse {
  return { status: 200, headers: {}, body };
}

/** A BackendFactory for the test backend. */
export const createTestBackend = (options: BackendOptions): EmulatorBackend => new TestBackend(options);
