/**
 * The transport-free request and response of sim/api. The emulator (sim/http) turns HTTP into
 * an ApiRequest and an ApiOutcome back into HTTP; the conformance oracle calls the same
 * functions directly. Nothing here knows about sockets.
 */
import type { Micros } from "../core/index.ts";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD" | "OPTIONS";

export interface ApiRequest {
  readonly method: HttpMethod;
  /** The path without the query string, e.g. `/v2/pods/abc`. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** The parsed JSON body; undefined when the request had none (an empty body reads as `{}` upstream). */
  readonly body: unknown;
}

export interface ApiResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** JSON-serialisable body; undefined for 204. A string with a `text/...` content type is sent as that text. */
  readonly body?: unknown;
}

/**
 * Most operations answer at once. `runsync` and `status-sync` may have to wait for a job:
 * they return a wait, which the transport resolves by calling `render` when the job reaches a
 * final state or when virtual time reaches `deadline`, whichever comes first.
 */
export type ApiOutcome =
  | { readonly kind: "response"; readonly response: ApiResponse }
  | {
      readonly kind: "wait";
      readonly endpointId: string;
      readonly jobId: string;
      /** The job's owner, so the transport's subscription can find it. */
      readonly accountId: string;
      readonly deadline: Micros;
      readonly render: (now: Micros) => ApiResponse;
    };

export const respond = (response: ApiResponse): ApiOutcome => ({ kind: "response", response });
