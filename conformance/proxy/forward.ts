/**
 * The transparent part of the proxy: one request in, the same request to the target (undici),
 * the target's answer back as it comes: status, end-to-end headers and body unchanged, streamed
 * chunk by chunk, held as long as the target holds it (up to the upstream timeout). Only the
 * hop-by-hop headers of RFC 9110 §7.6.1 are not forwarded, as every proxy must. What flowed is
 * handed to `onExchange` once the answer ended, with the bodies' first bytes and sizes.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { pipeline } from "node:stream/promises";
import type { Dispatcher } from "undici";
import { Capture, now } from "./capture.ts";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-connection", "transfer-encoding", "te", "trailer", "upgrade", "proxy-authorization", "proxy-authenticate", "expect", "host"]);

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

function forwardedHeaders(raw: readonly string[]): string[] {
  const named = new Set<string>();
  for (let i = 0; i < raw.length; i += 2) {
    if (raw[i].toLowerCase() === "connection") for (const n of raw[i + 1].split(",")) named.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    out.push(raw[i], raw[i + 1]);
  }
  return out;
}

function joined(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function hasBody(req: IncomingMessage): boolean {
  return req.headers["transfer-encoding"] !== undefined || (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");
}

export async function forward(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  upstream: Upstream,
  dispatcher: Dispatcher,
  options: { readonly captureBytes: number; readonly timeoutMs: number },
  onExchange: (flow: Flow) => void,
): Promise<void> {
  const sentAt = now();
  const method = (req.method ?? "GET").toUpperCase();
  const upstreamPath = `${upstream.basePath}${path}`;
  const requestCapture = new Capture(options.captureBytes);
  const abort = new AbortController();
  // The client went away before its answer ended: stop asking the target.
  res.on("close", () => {
    if (!res.writableFinished) abort.abort();
  });
  const body = hasBody(req) ? req.pipe(requestCapture) : undefined;
  const base = {
    method,
    path,
    upstreamUrl: `${upstream.origin}${upstreamPath}`,
    requestHeaders: joined(req.headers),
  };
  const requestPart = () => ({ requestText: requestCapture.text(), requestSize: requestCapture.size, requestTruncated: requestCapture.truncated });
  let answer: Dispatcher.ResponseData;
  try {
    answer = await dispatcher.request({
      origin: upstream.origin,
      path: upstreamPath,
      method: method as Dispatcher.HttpMethod,
      headers: forwardedHeaders(req.rawHeaders),
      body: body ?? null,
      signal: abort.signal,
      headersTimeout: options.timeoutMs,
      bodyTimeout: options.timeoutMs,
    });
  } catch (err) {
    const message = (err as Error).message;
    if (!res.headersSent && !res.destroyed) {
      const problem = JSON.stringify({ title: "Bad Gateway", status: 502, detail: `cpsim proxy: the target did not answer: ${message}` });
      res.writeHead(502, { "content-type": "application/problem+json", "content-length": Buffer.byteLength(problem) }).end(problem);
    }
    onExchange({ ...base, ...requestPart(), sentAt, answeredAt: now(), error: `the target did not answer: ${message}` });
    return;
  }
  const headers: Record<string, string | string[]> = {};
  const named = new Set(String(answer.headers["connection"] ?? "").split(",").map((s) => s.trim().toLowerCase()));
  for (const [k, v] of Object.entries(answer.headers)) {
    if (v === undefined || HOP_BY_HOP.has(k) || named.has(k)) continue;
    headers[k] = v;
  }
  const responseCapture = new Capture(options.captureBytes);
  let error: string | undefined;
  try {
    res.writeHead(answer.statusCode, headers);
    // An answer of unknown length (a stream) shows its headers as soon as the target sends them;
    // one of known length goes out with its body, in one write.
    if (answer.headers["content-length"] === undefined) res.flushHeaders();
    await pipeline(answer.body, responseCapture, res);
  } catch (err) {
    error = `the answer was cut: ${(err as Error).message}`;
    answer.body.destroy();
  }
  onExchange({
    ...base,
    ...requestPart(),
    sentAt,
    // The moment the answer's last byte passed, not when the pipeline noticed: the client may have sent its next request in between.
    answeredAt: responseCapture.endedAt ?? now(),
    response: { status: answer.statusCode, headers: joined(answer.headers), text: responseCapture.text(), size: responseCapture.size, truncated: responseCapture.truncated },
    ...(error ? { error } : {}),
  });
}
