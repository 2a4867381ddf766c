/**
 * A JSON body as its leaves (JSON pointer → value; an empty object or array is a leaf), the
 * fields whose values the spec leaves open, the shape a value is generalised to, and whether a
 * target's error names a leaf. The value store (value-store.ts) learns and judges by these.
 */
import { fieldLabel, fieldShape, pointerSegments } from "../../sim/api/validate/field-label.ts";

/** The operations whose bodies the suite generates, named as the spec names them. */
export type Operation = "createPod" | "updatePod";

/**
 * The top-level fields whose allowed values the spec leaves open (a protocol list, an image
 * policy, an env value shape): a target may refuse some values of them for reasons of its own.
 * The fields bound to the target's catalog (gpu, cpu, data centers, volumes, cloud, registry) are
 * fitted to what the catalog offers instead, and mounts and flags are what rules are about.
 */
export const OPEN_FIELDS: ReadonlySet<string> = new Set(["name", "image", "args", "disk", "ports", "env"]);

export function escapeSegment(s: string): string {
  return s.replace(/~/g, "~0").replace(/\//g, "~1");
}

/** The leaves of `value`, pointer first; at most `limit` of them. */
export function leaves(value: unknown, limit = 500): Map<string, unknown> {
  const out = new Map<string, unknown>();
  const walk = (v: unknown, pointer: string): void => {
    if (out.size >= limit) return;
    if (Array.isArray(v) && v.length > 0) v.forEach((x, i) => walk(x, `${pointer}/${i}`));
    else if (v !== null && typeof v === "object" && !Array.isArray(v) && Object.keys(v).length > 0) {
      for (const [k, x] of Object.entries(v)) walk(x, `${pointer}/${escapeSegment(k)}`);
    } else out.set(pointer, v);
  };
  walk(value, "");
  return out;
}

/** Whether the leaf at `pointer` lies in an open field (a top-level field of OPEN_FIELDS). */
export function isOpen(pointer: string): boolean {
  const first = pointerSegments(pointer)[0];
  return first !== undefined && OPEN_FIELDS.has(first);
}

/** The field a pointer's value is stored under: indexes as `[]`, env keys as `*` (`ports[]`, `env.*`). */
export const fieldOf = (pointer: string): string => fieldShape(pointer);

/** A value's identity in the store. */
export const valueKey = (v: unknown): string => JSON.stringify(v) ?? "undefined";

/**
 * The shape a refusal is generalised to: a string with its digit runs as `9` ("1/udp" and
 * "8080/udp" are both "9/udp"), any other value as itself.
 */
export function shapeOf(v: unknown): string {
  return typeof v === "string" ? `s:${v.replace(/[0-9]+/g, "9")}` : valueKey(v);
}

const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Whether an error text names the leaf at `pointer` of `body`: its JSON pointer (`/ports/0`), its
 * label (`ports[0]`, `ports.0`, `env.HOME`), its top-level field quoted or followed by a colon
 * when that field holds this one leaf alone (`"image"`, `image:`), or the string value itself
 * quoted when no other leaf holds it.
 */
export function names(text: string, pointer: string, body: Map<string, unknown>): boolean {
  const segs = pointerSegments(pointer);
  if (segs.length === 0) return false;
  const bounded = (f: string) => new RegExp(`(^|[^A-Za-z0-9_])${escapeRe(f)}(?![A-Za-z0-9_])`).test(text);
  // A top-level word counts only as a pointer, quoted or before a colon: prose uses such words.
  const field = (word: string) => bounded(`/${word}`) || new RegExp(`(["'\`])${escapeRe(word)}\\1|(^|[^A-Za-z0-9_./])${escapeRe(word)}\\s*:`).test(text);
  const lines = new Set(text.split("\n").map((l) => l.trim()));
  if ([pointer, fieldLabel(pointer)].some((f) => lines.has(f))) return true;
  if (segs.length > 1 && [pointer, fieldLabel(pointer), segs.join(".")].some(bounded)) return true;
  if (segs.length === 1 && field(segs[0]!)) return true;
  const top = segs[0]!;
  const inField = [...body.keys()].filter((p) => pointerSegments(p)[0] === top);
  if (segs.length > 1 && inField.length === 1 && field(top)) return true;
  const v = body.get(pointer);
  if (typeof v === "string" && v.length >= 3) {
    const holders = [...body.values()].filter((x) => x === v).length;
    if (holders === 1 && (text.includes(JSON.stringify(v)) || text.includes(`'${v}'`))) return true;
  }
  return false;
}

/** The words of an error answer: its JSON's string values, one a line (or its text when not JSON). */
export function errorText(text: string): string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return text.slice(0, 4000);
  }
  return [...leaves(json, 200).values()].filter((v): v is string => typeof v === "string").join("\n").slice(0, 4000);
}
