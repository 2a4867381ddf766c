/**
 * Request bodies as they stream in: counted against the route's limit (413 past it), or, for a
 * route whose body is not kept, digested through SHA-256 into a small summary.
 */
import { createHash } from "node:crypto";
import { Transform, type TransformCallback } from "node:stream";

/**
 * A body that is not kept (BackendRoute.rawBody): the bytes pass through SHA-256 and a counter
 * (413 past `limit`), and the stream the JSON parser reads is `{"bytes": N, "sha256": "hex"}`.
 * `receivedEncodedLength` tells fastify how many bytes really came, for its Content-Length check.
 */
export function digestStream(source: NodeJS.ReadableStream, limit: number): Transform {
  const hash = createHash("sha256");
  return limitStream(source, limit, {
    each: (chunk) => hash.update(chunk),
    end: (digest, bytes) => {
      (digest as Transform & { receivedEncodedLength?: number }).receivedEncodedLength = bytes;
      return JSON.stringify({ bytes, sha256: hash.digest("hex") });
    },
  });
}

/** Counts a body as it streams in (413 past `limit`); `through` may replace what passes on. */
export function limitStream(
  source: NodeJS.ReadableStream,
  limit: number,
  through?: { each: (chunk: Buffer) => void; end: (stream: Transform, bytes: number) => string },
): Transform {
  let seen = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
      seen += chunk.length;
      if (seen > limit) {
        source.unpipe(counter);
        callback(Object.assign(new Error(tooLarge(limit)), { statusCode: 413, code: "FST_ERR_CTP_BODY_TOO_LARGE" }));
        return;
      }
      if (through !== undefined) {
        through.each(chunk);
        callback();
        return;
      }
      callback(null, chunk);
    },
    flush(callback: TransformCallback) {
      callback(null, through?.end(counter, seen));
    },
  });
  source.pipe(counter);
  return counter;
}

export function tooLarge(limit: number): string {
  return `the request body is larger than the ${limit} bytes this route accepts`;
}
