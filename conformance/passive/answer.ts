/**
 * One exchange as the passive checks see it, whoever sent it: the recorded request and answer
 * (keys already redacted, bodies cut at a bound) plus what the checks read of them. A body above
 * the bound is judged on its head and its size: `json` is then undefined and `truncated` true.
 */
import type { Exchange } from "../recorder.ts";
import { bodyText } from "../record-body.ts";

/** What checks read of an answer; a conform ClientResponse has this shape too. */
export interface AnswerView {
  readonly status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
  /** The body parsed as JSON, or undefined when it is not JSON (or was cut). */
  readonly json: unknown;
}

export interface SeenRequest {
  readonly method: string;
  /** The path without the query, as the client sent it (on the job listener: without any prefix). */
  readonly path: string;
  readonly query: URLSearchParams;
  readonly headers: Readonly<Record<string, string>>;
  /** The body text when it was kept whole; undefined when there was none or it was cut. */
  readonly text?: string;
  readonly json: unknown;
  /** Bytes of the body on the wire. */
  readonly size: number;
  readonly truncated: boolean;
}

export interface SeenAnswer extends AnswerView {
  readonly size: number;
  readonly truncated: boolean;
}

/** Which base URL the request was sent to: {base_url} (REST, GraphQL) or {serverless_url} (job endpoints). */
export type Surface = "rest" | "serverless";

export interface SeenExchange {
  /** Order of arrival at the proxy (or of sending, in conform), from 1. */
  readonly seq: number;
  readonly surface: Surface;
  readonly request: SeenRequest;
  /** Absent when the target gave no answer (connection error, timeout). */
  readonly answer?: SeenAnswer;
  /** Milliseconds (Date.now()) when the request arrived and when its answer ended. */
  readonly sentAt: number;
  readonly answeredAt: number;
  /** An opaque name of the credential the request carried (never the key itself), for per-key rules. */
  readonly keyId?: string;
  /** The exchange as reports record it (redacted), for evidence and the curl line. */
  readonly recorded: Exchange;
  /**
   * The same exchange with its bodies cut to a few KiB and nothing parsed: what a follower keeps
   * to quote later. Absent: the exchange is already small (one read back from a report).
   */
  readonly slim?: () => SeenExchange;
}

/**
 * What a follower keeps of an exchange it may quote later (the evidence of a later finding): its
 * slim form, so the memory the followers hold grows with the jobs, pods and keys they follow and
 * never with the size of the bodies.
 */
export function kept(x: SeenExchange): SeenExchange {
  return x.slim ? x.slim() : x;
}

export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A view of a recorded exchange, for judging an exchange conform made (or one read back from a report). */
export function seenFromRecorded(recorded: Exchange, extra: { seq?: number; surface?: Surface; keyId?: string; sentAt?: number; answeredAt?: number } = {}): SeenExchange {
  const url = new URL(recorded.request.url, "http://target.invalid");
  const reqText = recorded.request.body ? bodyText(recorded.request.body) : undefined;
  const reqSize = recorded.request.body ? (recorded.request.body.kind === "text" ? Buffer.byteLength(recorded.request.body.text) : recorded.request.body.size) : 0;
  const res = recorded.response;
  return {
    seq: extra.seq ?? 1,
    surface: extra.surface ?? "rest",
    request: {
      method: recorded.request.method.toUpperCase(),
      path: url.pathname,
      query: url.searchParams,
      headers: recorded.request.headers,
      ...(reqText !== undefined ? { text: reqText } : {}),
      json: parseJson(reqText),
      size: reqSize,
      truncated: reqText === undefined && recorded.request.body !== undefined,
    },
    ...(res
      ? {
          answer: {
            status: res.status,
            headers: res.headers,
            text: res.body,
            json: res.truncated ? undefined : parseJson(res.body),
            size: res.size ?? Buffer.byteLength(res.body),
            truncated: res.truncated === true,
          },
        }
      : {}),
    sentAt: extra.sentAt ?? 0,
    answeredAt: extra.answeredAt ?? 0,
    ...(extra.keyId !== undefined ? { keyId: extra.keyId } : {}),
    recorded,
  };
}
