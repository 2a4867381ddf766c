/**
 * Test support for the job operations: a seeded platform behind a PlatformApi that serves only
 * the job routes, requests by key name, a stand-in for the transport's handling of waits, and
 * schema checks of response bodies. Not a test file itself (tap runs *.test.ts only).
 */
import type { Test } from "tap";
import { loadCatalog } from "../../../catalog/index.ts";
import { ms, type Micros } from "../../../core/index.ts";
import { Platform } from "../../../domain/platform.ts";
import { PlatformApi } from "../../platform-api.ts";
import { routes } from "../../routes.ts";
import { createValidator } from "../../schemas/index.ts";
import type { ApiOutcome, ApiResponse, HttpMethod } from "../../types.ts";
import { jobOperations } from "./index.ts";

export const KEYS = {
  alpha: "cpsim_alpha_full_7f3a9c2e41b6d805",
  alphaRead: "cpsim_alpha_read_2c8e5b1f9a3d6047",
  beta: "cpsim_beta_full_91d4e6a2c7b3f058",
  load: "cpsim_load_exempt_5b0e8d3a6c1f9247",
} as const;
export type KeyName = keyof typeof KEYS;

export const JOB_ROUTES = routes.filter((r) => Object.prototype.hasOwnProperty.call(jobOperations, r.op));

const validator = createValidator();

export interface RequestOptions {
  readonly key?: KeyName;
  readonly body?: unknown;
  readonly query?: Record<string, string>;
  readonly headers?: Record<string, string>;
}

type JsonObject = Record<string, unknown>;

export class Harness {
  readonly platform: Platform;
  readonly api: PlatformApi;

  constructor(seed = 1) {
    this.platform = new Platform({ seed, catalog: loadCatalog() });
    this.api = new PlatformApi(this.platform, jobOperations, JOB_ROUTES);
  }

  get now(): Micros {
    return this.platform.now;
  }

  request(method: HttpMethod, path: string, o: RequestOptions = {}): ApiOutcome {
    const headers: Record<string, string> = { authorization: `Bearer ${KEYS[o.key ?? "alpha"]}`, ...o.headers };
    return this.api.handle({ method, path, query: o.query ?? {}, headers, body: o.body });
  }

  /** A request that must be answered at once. */
  call(method: HttpMethod, path: string, o: RequestOptions = {}): ApiResponse {
    const outcome = this.request(method, path, o);
    if (outcome.kind !== "response") throw new Error(`${method} ${path} returned a wait`);
    return outcome.response;
  }

  /** POST run; returns the job id (throws unless 200). */
  run(endpoint: string, input: unknown, extra: JsonObject = {}, key: KeyName = "alpha"): string {
    const r = this.call("POST", `/v2/${endpoint}/run`, { key, body: { input, ...extra } });
    if (r.status !== 200) throw new Error(`run answered ${r.status}: ${JSON.stringify(r.body)}`);
    return (r.body as { id: string }).id;
  }

  status(endpoint: string, id: string, key: KeyName = "alpha"): ApiResponse {
    return this.call("GET", `/v2/${endpoint}/status/${id}`, { key });
  }

  statusOf(endpoint: string, id: string, key: KeyName = "alpha"): string | undefined {
    const r = this.status(endpoint, id, key);
    return r.status === 200 ? (r.body as { status: string }).status : undefined;
  }

  /** Virtual time moves by `n` milliseconds. */
  advance(n: number): void {
    this.platform.advanceTo(this.platform.now + ms(n));
  }

  /** Steps the model event by event until `done()` holds or `limitMs` passed; true if it held. */
  advanceUntil(done: () => boolean, limitMs = 3_600_000): boolean {
    const limit = this.platform.now + ms(limitMs);
    while (!done()) {
      const next = this.platform.engine.nextTime();
      if (next === undefined || next > limit) {
        this.platform.advanceTo(limit);
        return done();
      }
      // Events due at the current instant (a job started inside a request) run too.
      if (next <= this.platform.now) this.platform.engine.runUntil(this.platform.now);
      else this.platform.advanceTo(next);
    }
    return true;
  }

  /** Runs until the job is final (or gone); its status then. */
  finish(endpoint: string, id: string, key: KeyName = "alpha", limitMs?: number): string | undefined {
    const final = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);
    this.advanceUntil(() => {
      const s = this.statusOf(endpoint, id, key);
      return s === undefined || final.has(s);
    }, limitMs);
    return this.statusOf(endpoint, id, key);
  }

  /**
   * What the transport does with a wait: render when the job is final (from inside the model's
   * event, as the backend's onJobFinal listener does) or when virtual time reaches the deadline.
   */
  settle(outcome: ApiOutcome): ApiResponse {
    if (outcome.kind === "response") return outcome.response;
    const serverless = this.platform.serverless;
    let answer: ApiResponse | undefined;
    const listener = (): void => {
      answer ??= outcome.render(this.platform.now);
    };
    const sub = serverless.onFinal(outcome.endpointId, outcome.accountId, outcome.jobId, listener);
    if (!sub.ok) return outcome.render(this.platform.now);
    this.advanceUntil(() => answer !== undefined, (outcome.deadline - this.platform.now) / 1000);
    if (answer !== undefined) return answer;
    serverless.offFinal(outcome.jobId, listener);
    return outcome.render(this.platform.now);
  }
}

/** Asserts the body satisfies the named schema (`Job`, `HealthResponse`, ...). */
export function matchesSchema(t: Test, name: string, body: unknown, what = name): void {
  const result = validator.validate(`cpsim:${name}`, body);
  t.same(result.errors, [], `${what} satisfies ${name}`);
}

/** Asserts a problem+json error with this status, valid against ErrorResponse; returns its detail. */
export function expectProblem(t: Test, r: ApiResponse, status: number, what = `answers ${status}`): string {
  t.equal(r.status, status, what);
  t.equal(r.headers["content-type"], "application/problem+json", "problem+json");
  matchesSchema(t, "ErrorResponse", r.body, "error body");
  const body = r.body as { status: number; detail: string };
  t.equal(body.status, status, "body status equals the HTTP status");
  return body.detail;
}

export function body<T = JsonObject>(r: ApiResponse): T {
  return r.body as T;
}
