/**
 * Request bodies: JSON only, checked before anything else sees them. A body is bytes the client
 * controls, so each step refuses with a 4xx and a sentence saying why: the media type, UTF-8,
 * nesting depth and size of the structure (scanned on the bytes, before JSON.parse allocates
 * anything), the syntax, and keys that could reach an object's prototype.
 */
import { isUtf8 } from "node:buffer";

/** A request the transport refuses; becomes a problem+json response with this status. */
export class BodyRejection extends Error {
  override readonly name = "BodyRejection";
  readonly code = "CPSIM_ERR_BODY";
  constructor(
    readonly status: number,
    readonly detail: string,
  ) {
    super(detail);
  }
}

export const JSON_MEDIA_TYPES: ReadonlySet<string> = new Set(["application/json", "application/problem+json"]);

/**
 * Checks a Content-Type header value. Returns undefined when it names JSON (with no charset or
 * UTF-8), else the sentence of the 415 answer.
 */
export function contentTypeProblem(header: string): string | undefined {
  const semi = header.indexOf(";");
  const media = (semi === -1 ? header : header.slice(0, semi)).trim().toLowerCase();
  if (!JSON_MEDIA_TYPES.has(media)) {
    return `content type "${truncate(media)}" is not supported; send JSON with Content-Type: application/json`;
  }
  if (semi === -1) return undefined;
  for (const param of header.slice(semi + 1).split(";")) {
    const eq = param.indexOf("=");
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== "charset") continue;
    const charset = param.slice(eq + 1).trim().replace(/^"|"$/g, "").toLowerCase();
    if (charset !== "utf-8" && charset !== "utf8") {
      return `charset "${truncate(charset)}" is not supported; JSON bodies must be UTF-8`;
    }
  }
  return undefined;
}

export interface JsonLimits {
  readonly maxJsonDepth: number;
  readonly maxJsonArrayItems: number;
  readonly maxJsonValues: number;
}

/**
 * Parses a JSON body. An empty body reads as `{}`: the official Python client sends
 * `Content-Type: application/json` with no body on GET and on POST cancel / purge-queue.
 */
export function parseJsonBody(bytes: Buffer, limits: JsonLimits): unknown {
  if (bytes.length === 0) return {};
  if (!isUtf8(bytes)) throw new BodyRejection(400, "the request body is not valid UTF-8");
  // Below this size no limit can be exceeded, so the common small body skips the scan.
  if (bytes.length > limits.maxJsonDepth) scanStructure(bytes, limits);
  const text = bytes.toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new BodyRejection(400, `the request body is not valid JSON: ${(err as Error).message}`);
  }
  // The text test only skips the walk for bodies that cannot hold such a key: a key written with
  // escapes ("\u005f_proto__") reads as "__proto__" once parsed, so any escape means a walk.
  if (text.includes("__proto__") || text.includes("constructor") || text.includes("\\u")) checkPoisoning(value);
  return value;
}

/**
 * Walks the raw bytes once, tracking strings and brackets, and refuses nesting deeper than
 * maxJsonDepth, arrays longer than maxJsonArrayItems and more than maxJsonValues values. Counts
 * are by separators, exact for valid JSON; invalid JSON fails later in JSON.parse anyway.
 */
function scanStructure(bytes: Buffer, limits: JsonLimits): void {
  const maxDepth = limits.maxJsonDepth;
  const isArray = new Uint8Array(maxDepth + 2);
  const items = new Float64Array(maxDepth + 2);
  let depth = 0;
  let values = 0;
  const n = bytes.length;
  for (let i = 0; i < n; i++) {
    const c = bytes[i];
    if (c === 0x22) {
      // Skip the string: its closing quote is the next quote after an even number of backslashes.
      // Found with indexOf (native), so a 10 MB string costs next to nothing on the event loop.
      for (let q = i; ; ) {
        q = bytes.indexOf(0x22, q + 1);
        if (q === -1) {
          i = n;
          break;
        }
        let backslashes = 0;
        while (bytes[q - 1 - backslashes] === 0x5c) backslashes++;
        if (backslashes % 2 === 0) {
          i = q;
          break;
        }
      }
      continue;
    }
    if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > maxDepth) throw new BodyRejection(400, `the request body nests deeper than ${maxDepth} levels`);
      isArray[depth] = c === 0x5b ? 1 : 0;
      items[depth] = 1;
      if (++values > limits.maxJsonValues) tooManyValues(limits);
    } else if (c === 0x5d || c === 0x7d) {
      if (depth > 0) depth--;
    } else if (c === 0x2c) {
      if (++values > limits.maxJsonValues) tooManyValues(limits);
      if (depth > 0 && isArray[depth] === 1 && ++items[depth] > limits.maxJsonArrayItems) {
        throw new BodyRejection(400, `the request body has an array of more than ${limits.maxJsonArrayItems} items`);
      }
    }
  }
}

function tooManyValues(limits: JsonLimits): never {
  throw new BodyRejection(400, `the request body holds more than ${limits.maxJsonValues} JSON values`);
}

/**
 * JSON.parse makes `__proto__` an own property, harmless until some code merges the object into
 * another; the body is refused so that no such key reaches the model at all (the same rule as
 * fastify's onProtoPoisoning / onConstructorPoisoning "error").
 */
function checkPoisoning(root: unknown): void {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== "object") continue;
    if (Array.isArray(v)) {
      for (const x of v) if (x !== null && typeof x === "object") stack.push(x);
      continue;
    }
    if (Object.prototype.hasOwnProperty.call(v, "__proto__")) {
      throw new BodyRejection(400, 'the request body has a "__proto__" key, which is not allowed');
    }
    const ctor = (v as Record<string, unknown>).constructor;
    if (
      Object.prototype.hasOwnProperty.call(v, "constructor") &&
      ctor !== null &&
      typeof ctor === "object" &&
      Object.prototype.hasOwnProperty.call(ctor, "prototype")
    ) {
      throw new BodyRejection(400, 'the request body has a "constructor.prototype" key, which is not allowed');
    }
    for (const key in v) {
      const x = (v as Record<string, unknown>)[key];
      if (x !== null && typeof x === "object") stack.push(x);
    }
  }
}

function truncate(s: string): string {
  return s.length > 60 ? `${s.slice(0, 60)}…` : s;
}
