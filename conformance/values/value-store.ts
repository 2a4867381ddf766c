/**
 * The run's store of field values a target accepted and refused, learned from its own answers:
 * every createPod and PATCH of a pod the suite sends goes through the client, which hands the
 * exchange here. Values are kept per operation and field (`createPod ports[]`, `updatePod env.*`)
 * for the fields whose values the spec leaves open (leaves.ts OPEN_FIELDS).
 *
 * - Accepted: every open value of a body answered 2xx.
 * - Refused: a value of a body answered 400 or 422 (not for capacity) when the error names its
 *   path (`/ports/0`, `ports[0]`, `"image"`), or when the body differs from a body the target
 *   accepted in that one value alone. Only such a refusal "of the value alone" is learned; a refusal that names
 *   nothing, or several fields, teaches nothing.
 * - A refused string is generalised by its shape (digits as 9: "1/udp" refuses "8080/udp" too),
 *   unless a value of that shape was accepted; a value accepted once is never "refused".
 *
 * The body generators ask `fit` to fill a body: a known-refused value is replaced by an accepted
 * one of the same field, or left out (an optional field, an array entry, an env variable); on a
 * field where the target refused something, a value not yet known is replaced by an accepted one
 * when there is one. Checks ask `refusalOf(exchange)`: the open value a refusal was attributed
 * to, so that it is never blamed on the field a rule is about. Bounded: FIELD_LIMIT values per
 * field and BODY_LIMIT accepted bodies per operation.
 */
import { capacityWords } from "../checks/pods/create-capacity.ts";
import { errorText, fieldOf, isOpen, leaves, names, shapeOf, valueKey, type Operation } from "./leaves.ts";

const FIELD_LIMIT = 200;
const BODY_LIMIT = 64;
const LEARNED_STATUSES = new Set([400, 422]);
/** Fields a body of the operation cannot leave out. */
const REQUIRED: Readonly<Record<Operation, readonly string[]>> = { createPod: ["name", "image"], updatePod: [] };

export interface Refusal {
  readonly op: Operation;
  readonly pointer: string;
  readonly value: unknown;
  /** How it was attributed: the error named the path, or the body differed from an accepted one only there. */
  readonly by: "named" | "alone";
}

interface Field {
  readonly accepted: Map<string, unknown>;
  readonly refused: Set<string>;
  readonly acceptedShapes: Set<string>;
  readonly refusedShapes: Set<string>;
}

export interface SentExchange {
  readonly method: string;
  readonly url: string;
  /** The request body as sent (JSON text), if any. */
  readonly body?: string;
  readonly status: number;
  /** The answer's body text. */
  readonly text: string;
}

/** The operation a request is, by method and path; undefined for any other. */
export function operationOf(method: string, url: string): Operation | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const m = method.toUpperCase();
  if (m === "POST" && /\/pods\/?$/.test(path)) return "createPod";
  if (m === "PATCH" && /\/pods\/[^/:]+$/.test(path)) return "updatePod";
  return undefined;
}

const add = <T>(set: Set<T>, v: T) => void (set.size < FIELD_LIMIT && set.add(v));

export class ValueStore {
  private readonly fields = new Map<string, Field>();
  private readonly bodies = new Map<Operation, Map<string, unknown>[]>();
  private readonly attributed = new WeakMap<object, Refusal>();
  private learned = 0;

  /** Counts, for the log and tests. */
  get size(): { readonly fields: number; readonly refusals: number } {
    return { fields: this.fields.size, refusals: this.learned };
  }

  private field(op: Operation, field: string): Field {
    const key = `${op} ${field}`;
    let f = this.fields.get(key);
    if (!f) {
      f = { accepted: new Map(), refused: new Set(), acceptedShapes: new Set(), refusedShapes: new Set() };
      if (this.fields.size < FIELD_LIMIT) this.fields.set(key, f);
    }
    return f;
  }

  /** Learns from one exchange; `token` (the recorded exchange) is what refusalOf is later asked with. */
  observe(sent: SentExchange, token?: object): Refusal | undefined {
    const op = operationOf(sent.method, sent.url);
    if (op === undefined || sent.body === undefined) return undefined;
    let body: unknown;
    try {
      body = JSON.parse(sent.body);
    } catch {
      return undefined;
    }
    if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
    const flat = leaves(body);
    if (sent.status >= 200 && sent.status < 300) {
      for (const [pointer, value] of flat) {
        if (!isOpen(pointer)) continue;
        const f = this.field(op, fieldOf(pointer));
        if (f.accepted.size < FIELD_LIMIT) f.accepted.set(valueKey(value), value);
        add(f.acceptedShapes, shapeOf(value));
      }
      const kept = this.bodies.get(op) ?? [];
      kept.push(flat);
      if (kept.length > BODY_LIMIT) kept.shift();
      this.bodies.set(op, kept);
      return undefined;
    }
    if (!LEARNED_STATUSES.has(sent.status)) return undefined;
    const text = errorText(sent.text);
    // A refusal for capacity or a limit is no word on any value (a body alike but for its name may meet one).
    if (capacityWords(text)) return undefined;
    const refusal = this.attribute(op, flat, text);
    if (refusal === undefined) return undefined;
    const f = this.field(op, fieldOf(refusal.pointer));
    add(f.refused, valueKey(refusal.value));
    add(f.refusedShapes, shapeOf(refusal.value));
    this.learned++;
    if (token) this.attributed.set(token, refusal);
    return refusal;
  }

  private attribute(op: Operation, flat: Map<string, unknown>, text: string): Refusal | undefined {
    const open = [...flat.keys()].filter(isOpen);
    const named = open.filter((p) => names(text, p, flat));
    if (named.length === 1) return { op, pointer: named[0]!, value: flat.get(named[0]!), by: "named" };
    if (named.length > 1) return undefined;
    for (const accepted of this.bodies.get(op) ?? []) {
      const differing = new Set<string>();
      for (const [p, v] of flat) if (!accepted.has(p) || valueKey(accepted.get(p)) !== valueKey(v)) differing.add(p);
      for (const p of accepted.keys()) if (!flat.has(p)) differing.add(p);
      if (differing.size !== 1) continue;
      const p = [...differing][0]!;
      if (flat.has(p) && isOpen(p)) return { op, pointer: p, value: flat.get(p), by: "alone" };
    }
    return undefined;
  }

  /** The open value a refused exchange was attributed to, if any. */
  refusalOf(exchange: object): Refusal | undefined {
    return this.attributed.get(exchange);
  }

  /** What the target said of this value of this field: accepted, refused (alone), or nothing yet. */
  status(op: Operation, pointer: string, value: unknown): "accepted" | "refused" | undefined {
    const f = this.fields.get(`${op} ${fieldOf(pointer)}`);
    if (!f) return undefined;
    const key = valueKey(value);
    if (f.accepted.has(key)) return "accepted";
    if (f.refused.has(key)) return "refused";
    const shape = shapeOf(value);
    if (f.refusedShapes.has(shape) && !f.acceptedShapes.has(shape)) return "refused";
    return undefined;
  }

  /** An accepted value of the field, picked by `drawn` (so a seed keeps its choices), other than `avoid`. */
  private acceptedFor(op: Operation, pointer: string, drawn: unknown, avoid: ReadonlySet<string> = new Set()): { value: unknown } | undefined {
    const f = this.fields.get(`${op} ${fieldOf(pointer)}`);
    const values = [...(f?.accepted.values() ?? [])].filter((v) => !avoid.has(valueKey(v)));
    if (values.length === 0) return undefined;
    let h = 0;
    for (const c of valueKey(drawn)) h = (h * 31 + c.charCodeAt(0)) >>> 0;
    return { value: values[h % values.length] };
  }

  /** Whether the target refused some value of this field: its values not yet known are avoided. */
  private choosy(op: Operation, pointer: string): boolean {
    return (this.fields.get(`${op} ${fieldOf(pointer)}`)?.refused.size ?? 0) > 0;
  }

  /** Whether to replace a value: it is refused, or unknown on a field where the target refused some. */
  private replace(op: Operation, pointer: string, value: unknown): boolean {
    const s = this.status(op, pointer, value);
    return s === "refused" || (s === undefined && this.choosy(op, pointer));
  }

  /**
   * The body with its open fields filled only with values the target is not known to refuse,
   * preferring accepted ones (see the file's comment). Other fields are left as they are. A copy.
   */
  fit<T>(op: Operation, input: T): T {
    const body = JSON.parse(JSON.stringify(input ?? null)) as Record<string, unknown>;
    if (this.fields.size === 0 || body === null || typeof body !== "object" || Array.isArray(body)) return body as T;
    for (const key of Object.keys(body)) {
      if (!isOpen(`/${key}`)) continue;
      const value = body[key];
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        const seen = new Set<string>();
        for (const entry of value) {
          const pointer = `/${key}/${out.length}`;
          let v = entry;
          if (this.replace(op, pointer, v)) {
            const other = this.acceptedFor(op, pointer, v, seen);
            if (other === undefined && this.status(op, pointer, v) === "refused") continue;
            if (other !== undefined) v = other.value;
          }
          if (seen.has(valueKey(v))) continue;
          seen.add(valueKey(v));
          out.push(v);
        }
        body[key] = out;
      } else if (value !== null && typeof value === "object") {
        const map = value as Record<string, unknown>;
        for (const [k, v] of Object.entries(map)) {
          const pointer = `/${key}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`;
          if (!this.replace(op, pointer, v)) continue;
          const other = this.acceptedFor(op, pointer, v);
          if (other !== undefined) map[k] = other.value;
          else if (this.status(op, pointer, v) === "refused") delete map[k];
        }
      } else if (this.replace(op, `/${key}`, value)) {
        const other = this.acceptedFor(op, `/${key}`, value);
        if (other !== undefined) body[key] = other.value;
        else if (this.status(op, `/${key}`, value) === "refused" && !REQUIRED[op].includes(key)) delete body[key];
      }
    }
    return body as T;
  }
}
