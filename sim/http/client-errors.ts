/**
 * Connections outside any route: node's client errors (bad HTTP, header overflow, a request that
 * came too slowly) answered as problem+json after the pipelined requests before them, and the
 * lingering close that lets a client read an early answer before its connection goes.
 */
import type { Socket } from "node:net";
import { PROBLEM_CONTENT_TYPE, problemBody } from "../api/problem.ts";

export function onClientError(err: Error & { code?: string }, socket: Socket, maxHeaderBytes: number): void {
  if (err.code === "ECONNRESET" || socket.destroyed) return;
  let status = 400;
  let detail = "the request is not valid HTTP";
  if (err.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    status = 408;
    detail = "the request did not arrive in time";
  } else if (err.code === "HPE_HEADER_OVERFLOW") {
    status = 431;
    detail = `the request line and headers are larger than ${maxHeaderBytes} bytes`;
  }
  // Requests pipelined before the bad one are answered first, in order: their answers are the
  // client's, and the 400 comes after them (bounded: a parked wait is not waited for long).
  // (Only for parse errors: on a timeout the in-flight answer is the late request's own.)
  const deadline = performance.now() + (err.code?.startsWith("HPE_") ? PIPELINE_DRAIN_MS : 0);
  const answer = (): void => {
    if (socket.destroyed) return;
    const inFlight = (socket as Socket & { _httpMessage?: { writableFinished?: boolean; req?: { complete?: boolean }; once(e: string, f: () => void): void } })
      ._httpMessage;
    // A request whose body is still incomplete is the bad one itself: answer it at once.
    if (inFlight && !inFlight.writableFinished && inFlight.req?.complete === true && performance.now() < deadline) {
      let next = false;
      const again = (): void => {
        if (next) return;
        next = true;
        setImmediate(answer);
      };
      inFlight.once("finish", again);
      inFlight.once("close", again);
      setTimeout(again, Math.max(1, deadline - performance.now())).unref();
      return;
    }
    // An answer already on its way cannot be followed by another; one not started is replaced.
    if (!socket.writable || (inFlight && !inFlight.writableFinished && (inFlight as { headersSent?: boolean }).headersSent)) {
      socket.destroy();
      return;
    }
    const body = JSON.stringify(problemBody(status, detail));
    socket.end(
      `HTTP/1.1 ${status} ${statusText(status)}\r\nContent-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
    // Let the answer reach the client, then drop whatever else it is still sending.
    setTimeout(() => socket.destroy(), 1_000).unref();
  };
  answer();
}

function statusText(status: number): string {
  return status === 408 ? "Request Timeout" : status === 431 ? "Request Header Fields Too Large" : "Bad Request";
}

/** How long a malformed pipelined request waits for the answers of the requests before it. */
const PIPELINE_DRAIN_MS = 5_000;

/** How long a connection closed after an early answer keeps draining what the client still sends. */
const LINGER_MS = 2_000;

/**
 * A lingering close (as nginx's lingering_close): when an answer is sent before the request body
 * was read (413, 415, …) and the connection is to close, node would destroy the socket as soon as
 * the answer is flushed; bytes the client is still sending would then draw a TCP reset, which can
 * discard the answer from the client's receive buffer before it reads it. Instead the socket is
 * half-closed and keeps discarding input for a bounded time, so the client gets to read the answer.
 */
export function lingerOnClose(socket: Socket): void {
  const linger = socket as Socket & { destroySoon?: () => void; cpsimLinger?: boolean };
  if (linger.cpsimLinger) return;
  linger.cpsimLinger = true;
  linger.destroySoon = function (this: Socket) {
    if (this.writable) this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
    this.resume();
  };
}
