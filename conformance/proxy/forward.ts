/**
 * The transparent part of the proxy: one request in, the same request to the target, the
 * target's answer back as it comes: status, end-to-end headers and body unchanged, streamed chunk
 * by chunk, held as long as the target holds it (up to the upstream timeout). Only the hop-by-hop
 * headers of RFC 9110 §7.6.1 are not forwarded, as every proxy must. What flowed is handed to
 * `onExchange` once the answer ended, with the bodies' first bytes and sizes.
 *
 * It speaks to the target through undici's `dispatch` (the layer `request()` is built on): each
 * chunk of the answer is written to the client as it arrives, with the target paused while the
 * client's socket is full, and no stream, promise or AbortController is made per exchange. A
 * request body of known length up to SMALL_BODY is read whole first and sent in one write; a
 * larger or chunked one is streamed as it comes.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from "node:http";
import type { Dispatcher } from "undici";
import { BodyHead, Capture, now, type ByteBudget } from "./capture.ts";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization", "proxy-authenticate", "expect", "host"]);

/** Request bodies of known length up to this many bytes are read whole before they are sent. */
export const SMALL_BODY = 64 * 1024;

export interface Upstream {
  /** Origin of the target ("http://host:port") and the path its base URL adds before every request path. */
  readonly origin: string;
  readonly basePath: string;
}

export interface Flow {
  readonly method: string;
  /** Path and query as the client sent them (after any prefix the proxy strips). */
  readonly path: string;
  readonly upstreamUrl: string;
  readonly requestHeaders: Record<string, string>;
  readonly requestText: string;
  readonly requestSize: number;
  readonly requestTruncated: boolean;
  readonly sentAt: number;
  readonly answeredAt: number;
  readonly response?: {
    readonly status: number;
    readonly headers: Record<string, string>;
    readonly text: string;
    readonly size: number;
    readonly truncated: boolean;
  };
  /** Why there is no answer (the target unreachable, a timeout), or why it was cut (the client left). */
  readonly error?: string;
}

export interface ForwardOptions {
  readonly captureBytes: number;
  /** The bytes all body heads may hold at once; absent: no bound but captureBytes per body. */
  readonly budget?: ByteBudget;
  readonly timeoutMs: number;
}

/** Adds the header names a Connection value lists (RFC 9110 §7.6.1: those are hop-by-hop too). */
function connectionNames(value: string, into: Set<string> = new Set()): Set<string> {
  for (const n of value.split(",")) into.add(n.trim().toLowerCase());
  return into;
}

function forwardedHeaders(raw: readonly string[]): string[] {
  let named: Set<string> | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].length === 10 && raw[i].toLowerCase() === "connection") named = connectionNames(raw[i + 1], named);
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || named?.has(name)) continue;
    out.push(raw[i], raw[i + 1]);
  }
  return out;
}

function joined(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) out[k] = Array.isArray(v) ? v.join(", ") : v;
  }
  return out;
}

/** The answer's end-to-end headers (names lower-case, as undici gives them). */
function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const connection = headers["connection"];
  const named = connection === undefined ? undefined : connectionNames(String(connection));
  const out: Record<string, string | string[]> = {};
  for (const k in headers) {
    const v = headers[k];
    if (v === undefined || HOP_BY_HOP.has(k) || named?.has(k)) continue;
    out[k] = v;
  }
  return out;
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");
}

/** The declared length of a body small enough to read whole first; undefined otherwise. */
function smallLength(req: IncomingMessage): number | undefined {
  if (req.headers["transfer-encoding"] !== undefined) return undefined;
  const n = Number(req.headers["content-length"]);
  return Number.isSafeInteger(n) && n > 0 && n <= SMALL_BODY ? n : undefined;
}

/** Reads a small body whole; undefined when the client went away first. */
function readWhole(req: IncomingMessage, done: (body: Buffer | undefined) => void): void {
  const parts: Buffer[] = [];
  let settled = false;
  const settle = (body: Buffer | undefined) => {
    if (settled) return;
    settled = true;
    done(body);
  };
  req.on("data", (c: Buffer) => parts.push(c));
  req.on("end", () => settle(parts.length === 1 ? parts[0] : Buffer.concat(parts)));
  req.on("error", () => settle(undefined));
  req.on("close", () => settle(undefined));
}

export function forward(req: IncomingMessage, res: ServerResponse, path: string, upstream: Upstream, dispatcher: Dispatcher, options: ForwardOptions, onExchange: (flow: Flow) => void): void {
  const sentAt = now();
  const method = (req.method ?? "GET").toUpperCase();
  const upstreamPath = `${upstream.basePath}${path}`;
  // Node joins repeated request headers itself, all but set-cookie.
  const requestHeaders = req.headers["set-cookie"] === undefined ? (req.headers as Record<string, string>) : joined(req.headers);
  const base = { method, path, upstreamUrl: `${upstream.origin}${upstreamPath}`, requestHeaders };
  let requestHead: BodyHead | undefined;
  const requestPart = () => ({ requestText: requestHead?.text() ?? "", requestSize: requestHead?.size ?? 0, requestTruncated: requestHead?.truncated ?? false });

  let controller: Dispatcher.DispatchController | undefined;
  let clientGone = false;
  let reported = false;
  // The client went away before its answer ended: stop asking the target.
  res.on("close", () => {
    if (res.writableFinished) return;
    clientGone = true;
    controller?.abort(new Error("the client went away"));
  });

  let status = 0;
  let answerHeaders: IncomingHttpHeaders | undefined;
  const answerHead = new BodyHead(options.captureBytes, options.budget);
  let declaredLength = -1;
  let whole: Buffer | undefined;
  const report = (answeredAt: number, error?: string) => {
    if (reported) return;
    reported = true;
    try {
      onExchange({
        ...base,
        ...requestPart(),
        sentAt,
        answeredAt,
        ...(answerHeaders ? { response: { status, headers: joined(answerHeaders), text: answerHead.text(), size: answerHead.size, truncated: answerHead.truncated } } : {}),
        ...(error ? { error } : {}),
      });
    } finally {
      // Judged: the heads' bytes go back to the budget.
      requestHead?.release();
      answerHead.release();
    }
  };
  const fail = (err: Error) => {
    if (!answerHeaders) {
      if (!res.headersSent && !res.destroyed) {
        const problem = JSON.stringify({ title: "Bad Gateway", status: 502, detail: `cpsim proxy: the target did not answer: ${err.message}` });
        res.writeHead(502, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(problem) }).end(problem);
      }
      report(now(), `the target did not answer: ${err.message}`);
      return;
    }
    if (!res.destroyed) res.destroy(err);
    report(now(), `the answer was cut: ${err.message}`);
  };

  const handler: Dispatcher.DispatchHandler = {
    onRequestStart(c) {
      controller = c;
      if (clientGone) c.abort(new Error("the client went away"));
    },
    onResponseStart(c, statusCode, headers) {
      // 1xx informational answers are not forwarded, as undici's request() does not.
      if (statusCode < 200) return;
      status = statusCode;
      answerHeaders = headers;
      declaredLength = headers["content-length"] === undefined ? -1 : Number(headers["content-length"]);
      try {
        res.writeHead(statusCode, endToEnd(headers));
        // An answer of unknown length (a stream) shows its headers as soon as the target sends
        // them; one of known length goes out with its body.
        if (headers["content-length"] === undefined) res.flushHeaders();
      } catch (err) {
        c.abort(err as Error);
      }
    },
    onResponseData(c, chunk) {
      answerHead.add(chunk);
      // A whole answer of known length in one piece (the usual small answer) goes out with res.end at its end, which follows at once.
      if (whole === undefined && answerHead.size === chunk.length && chunk.length === declaredLength) {
        whole = chunk;
        return;
      }
      if (whole !== undefined) {
        res.write(whole);
        whole = undefined;
      }
      if (!res.write(chunk) && !res.destroyed) {
        c.pause();
        res.once("drain", () => c.resume());
      }
    },
    onResponseEnd() {
      // The moment the answer's last byte passed, before the client saw it: it may send its next request at once.
      const answeredAt = now();
      if (whole !== undefined) res.end(whole);
      else res.end();
      report(answeredAt);
    },
    onResponseError(_c, err) {
      fail(err);
    },
  };

  const send = (body: Buffer | Capture | null) => {
    dispatcher.dispatch(
      { origin: upstream.origin, path: upstreamPath, method: method as Dispatcher.HttpMethod, headers: forwardedHeaders(req.rawHeaders), body, headersTimeout: options.timeoutMs, bodyTimeout: options.timeoutMs },
      handler,
    );
  };
  if (!hasBody(req)) {
    send(null);
    return;
  }
  if (smallLength(req) !== undefined) {
    readWhole(req, (body) => {
      requestHead = new BodyHead(options.captureBytes, options.budget);
      if (body) requestHead.add(body);
      if (body && !clientGone) send(body);
      else fail(new Error("the client went away before its request ended"));
    });
    return;
  }
  const capture = new Capture(options.captureBytes, options.budget);
  requestHead = capture.head;
  const body = req.pipe(capture);
  // A client that goes away mid-upload ends nothing by itself: pipe() neither ends nor destroys
  // the capture, and undici would wait for the rest of the body forever, the proxy's stop with it.
  req.on("close", () => {
    if (!req.complete && !capture.destroyed) capture.destroy(new Error("the client went away before its request ended"));
  });
  // A target that answers before it has read the whole body (a 413 to an oversized upload) makes
  // undici drop the body stream: the rest of the upload is then read and discarded, as a server
  // does, else the paused socket holds the connection open with nothing left to wake it (and the
  // proxy's stop waits on it forever). Registered after pipe()'s own listener, which pauses `req`.
  capture.on("close", () => {
    if (req.complete || req.destroyed) return;
    req.unpipe(capture);
    req.resume();
  });
  send(body);
}
