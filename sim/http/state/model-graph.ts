/**
 * Own code, because v8.serialize keeps neither prototypes nor functions and cannot write into a
 * live model whose closures hold its objects: the model's state as bytes, and back.
 *
 * capture(root) walks the object graph from `root` (own data properties, arrays, Maps, Sets,
 * typed arrays, Dates) and numbers every object once, so shared objects and cycles survive; a
 * class instance keeps its class's name, a function is kept only as "a function was here".
 * The table is then written with v8.serialize.
 *
 * restore(fresh, bytes) brings a model built the same way (same options and seed, nothing
 * happened yet) to the captured state *in place*: it first pairs the captured objects with the
 * fresh model's objects along the same property paths (breadth first from the root), so every
 * object the fresh model's closures hold is the one that receives the captured fields; objects
 * with no counterpart are created with their class's prototype, found among the fresh model's
 * objects or given in `classes`; a captured function takes the fresh model's function at the same
 * place. What cannot be restored this way (a class or function with no counterpart, a kind of
 * object the walk does not know) throws GraphError, so a snapshot is checked by restoring it once
 * before it is trusted (save-state.ts).
 */
import { deserialize, serialize } from "node:v8";
import { type MosaicRecipe, lazyObjectInto, lazyPartOf } from "../../domain/handlers/lazy-output.ts";

export class GraphError extends Error {
  override readonly name = "GraphError";
}

/** A reference to node `r` of the table; any plain object in a value slot is one (objects are never inline). */
interface Ref {
  readonly r: number;
}
type Value = string | number | boolean | bigint | null | undefined | Ref;

type Node =
  | { readonly k: "o"; readonly c: string; readonly frozen: boolean; readonly keys: string[]; readonly vals: Value[] }
  | { readonly k: "a"; readonly frozen: boolean; readonly vals: Value[] }
  | { readonly k: "m"; readonly keys: Value[]; readonly vals: Value[] }
  | { readonly k: "s"; readonly vals: Value[] }
  | { readonly k: "v"; readonly c: string; readonly bytes: Uint8Array }
  | { readonly k: "d"; readonly t: number }
  | { readonly k: "f" }
  /** An output whose picture is made when read (domain/handlers/lazy-output.ts): its recipe, not the picture. */
  | { readonly k: "l"; readonly keys: string[]; readonly vals: Value[]; readonly key: string; readonly recipe: MosaicRecipe };

/** Objects in a graph at most: a model past this is not one the emulator holds. */
const MAX_NODES = 50_000_000;
const VIEWS: Record<string, new (b: ArrayBuffer) => ArrayBufferView> = {
  Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array,
};
const REFUSED = new Set<unknown>([Promise.prototype, WeakMap.prototype, WeakSet.prototype, DataView.prototype, ArrayBuffer.prototype, RegExp.prototype]);
if (typeof WeakRef !== "undefined") REFUSED.add(WeakRef.prototype);

function className(o: object): string {
  const proto = Object.getPrototypeOf(o) as object | null;
  if (proto === null) return "null";
  if (proto === Object.prototype) return "Object";
  const ctor = (proto as { constructor?: { name?: unknown } }).constructor;
  const name = typeof ctor === "function" && typeof ctor.name === "string" && ctor.name !== "" ? ctor.name : undefined;
  if (name === undefined) throw new GraphError("an object whose class has no name cannot be kept");
  return name;
}

/** The model's state reachable from `root`, as bytes. Throws GraphError for what it cannot keep. */
export function capture(root: object): Buffer {
  return serialize(walk(root, undefined));
}

/**
 * Strings at least this long are captured apart by captureApart: serializing the table copies
 * every string in it, and a model holding uploads (45 inputs of 9.9 MB) took 240 ms to copy at once.
 */
export const APART_CHARS = 1 << 18;

/**
 * A capture whose long strings are kept by reference (strings never change, so they are the
 * captured state however late they are copied): `table` is the rest, already bytes, each long
 * string in it a `{ t: index }` in `texts`. joinCapture makes of them the bytes capture() makes.
 */
export interface SplitCapture {
  readonly table: Buffer;
  readonly texts: readonly string[];
}

/** capture(), with the long strings left to copy later, a few at a time (save-state.ts). */
export function captureApart(root: object): SplitCapture {
  const texts: string[] = [];
  const table = serialize(walk(root, texts));
  return { table, texts };
}

/** Roughly the bytes a split capture makes once joined: a string counts its length (half a two-byte string's). */
export function splitCaptureBytes(split: SplitCapture): number {
  return split.texts.reduce((sum, s) => sum + s.length, split.table.length);
}

/** The bytes capture() would have made, from a split capture's table and its texts, each written with v8.serialize. */
export function joinCapture(table: Uint8Array, texts: readonly Uint8Array[]): Buffer {
  if (texts.length === 0) return Buffer.from(table.buffer, table.byteOffset, table.byteLength);
  const nodes = deserialize(table) as Node[];
  const strings = texts.map((t) => deserialize(t) as unknown);
  const put = (vals: Value[]): void => {
    for (let i = 0; i < vals.length; i++) {
      const v = vals[i] as unknown;
      if (typeof v === "object" && v !== null && "t" in v) {
        const text = strings[(v as Apart).t];
        if (typeof text !== "string") throw new GraphError(`a split capture names text ${(v as Apart).t}, which it does not hold`);
        vals[i] = text;
      }
    }
  };
  for (const node of nodes) {
    if (node.k === "o" || node.k === "a" || node.k === "s" || node.k === "l") put(node.vals);
    else if (node.k === "m") (put(node.keys), put(node.vals));
  }
  return serialize(nodes);
}

/** A long string captured apart: its index in the split capture's texts. */
interface Apart {
  readonly t: number;
}

/** The table of every object reachable from `root`; with `texts`, long strings go there and an Apart stands in for each. */
function walk(root: object, texts: string[] | undefined): Node[] {
  const ids = new Map<object, number>();
  const queue: object[] = [];
  const nodes: Node[] = [];
  const ref = (v: unknown): Value => {
    if (v === null || (typeof v !== "object" && typeof v !== "function")) {
      if (typeof v === "symbol") throw new GraphError("a symbol value cannot be kept");
      if (texts !== undefined && typeof v === "string" && v.length >= APART_CHARS) {
        texts.push(v);
        // Only in a split capture's table, and replaced by joinCapture before anything reads it as a Ref.
        return { t: texts.length - 1 } satisfies Apart as unknown as Value;
      }
      return v as Value;
    }
    let id = ids.get(v as object);
    if (id === undefined) {
      if (ids.size >= MAX_NODES) throw new GraphError(`the model holds more than ${MAX_NODES} objects`);
      id = ids.size;
      ids.set(v as object, id);
      queue.push(v as object);
    }
    return { r: id };
  };
  ref(root);
  for (let i = 0; i < queue.length; i++) nodes.push(encodeNode(queue[i]!, ref));
  queue.length = 0;
  return nodes;
}

function encodeNode(o: object, ref: (v: unknown) => Value): Node {
  if (typeof o === "function") return { k: "f" };
  if (Array.isArray(o)) {
    const vals = new Array<Value>(o.length);
    for (let i = 0; i < o.length; i++) vals[i] = ref(o[i]);
    return { k: "a", frozen: Object.isFrozen(o), vals };
  }
  if (o instanceof Map) {
    const keys: Value[] = [];
    const vals: Value[] = [];
    for (const [k, v] of o) {
      keys.push(ref(k));
      vals.push(ref(v));
    }
    return { k: "m", keys, vals };
  }
  if (o instanceof Set) return { k: "s", vals: [...o].map(ref) };
  if (ArrayBuffer.isView(o)) {
    const name = o instanceof Buffer ? "Buffer" : className(o);
    if (name !== "Buffer" && VIEWS[name] === undefined) throw new GraphError(`a ${name} cannot be kept`);
    return { k: "v", c: name, bytes: new Uint8Array(o.buffer.slice(o.byteOffset, o.byteOffset + o.byteLength)) };
  }
  if (o instanceof Date) return { k: "d", t: o.getTime() };
  const lazy = lazyPartOf(o);
  if (lazy !== undefined) {
    const all = Object.keys(o);
    const at = all.indexOf(lazy.key);
    return { k: "l", keys: all, vals: all.map((k, i) => (i === at ? null : ref((o as Record<string, unknown>)[k]))), key: lazy.key, recipe: { ...lazy.recipe } };
  }
  const proto = Object.getPrototypeOf(o) as unknown;
  if (REFUSED.has(proto)) throw new GraphError(`a ${className(o)} cannot be kept`);
  const keys: string[] = [];
  const vals: Value[] = [];
  for (const key of Object.getOwnPropertyNames(o)) {
    const d = Object.getOwnPropertyDescriptor(o, key)!;
    if (!("value" in d)) throw new GraphError(`an accessor property (${className(o)}.${key}) cannot be kept`);
    keys.push(key);
    vals.push(ref(d.value));
  }
  if (Object.getOwnPropertySymbols(o).length > 0) throw new GraphError(`a ${className(o)} with symbol keys cannot be kept`);
  return { k: "o", c: className(o), frozen: Object.isFrozen(o), keys, vals };
}

const isRef = (v: Value): v is Ref => typeof v === "object" && v !== null;

/**
 * Brings `fresh` (a model built as the captured one was, nothing done yet) to the captured state,
 * in place. `classes` names the classes whose instances a fresh model may not hold yet.
 */
export function restore(fresh: object, bytes: Buffer, classes: readonly (abstract new (...args: never[]) => unknown)[] = []): void {
  let nodes: Node[];
  try {
    nodes = deserialize(bytes) as Node[];
  } catch (err) {
    throw new GraphError(`the snapshot cannot be read: ${(err as Error).message}`);
  }
  if (!Array.isArray(nodes) || nodes.length === 0) throw new GraphError("the snapshot holds no model");
  const protos = new Map<string, object | "ambiguous">();
  const addProto = (name: string, proto: object): void => {
    const had = protos.get(name);
    if (had === undefined) protos.set(name, proto);
    else if (had !== proto) protos.set(name, "ambiguous");
  };
  for (const c of classes) addProto(c.name, c.prototype as object);
  collectPrototypes(fresh, addProto);
  const targets = pair(fresh, nodes);
  for (let id = 0; id < nodes.length; id++) if (targets[id] === undefined) targets[id] = create(nodes[id]!, id, protos);
  const value = (v: Value): unknown => (isRef(v) ? targets[v.r] : v);
  for (let id = 0; id < nodes.length; id++) fill(nodes[id]!, targets[id]!, value);
}

/** Every class the fresh model holds an instance of, by name. */
function collectPrototypes(fresh: object, addProto: (name: string, proto: object) => void): void {
  const seen = new Set<object>([fresh]);
  const queue: object[] = [fresh];
  const visit = (v: unknown): void => {
    if (v === null || typeof v !== "object" || seen.has(v) || seen.size >= MAX_NODES) return;
    seen.add(v);
    queue.push(v);
  };
  for (let i = 0; i < queue.length; i++) {
    const o = queue[i]!;
    if (ArrayBuffer.isView(o) || o instanceof Date) continue;
    if (o instanceof Map) for (const [k, v] of o) (visit(k), visit(v));
    else if (o instanceof Set || Array.isArray(o)) for (const v of o as Iterable<unknown>) visit(v);
    else {
      const proto = Object.getPrototypeOf(o) as object | null;
      if (proto !== null && proto !== Object.prototype && !REFUSED.has(proto)) {
        try {
          addProto(className(o), proto);
        } catch {
          // A nameless class: never restorable by name, and create() says so if one is needed.
        }
      }
      for (const key of Object.getOwnPropertyNames(o)) {
        const d = Object.getOwnPropertyDescriptor(o, key)!;
        if ("value" in d) visit(d.value);
      }
    }
  }
}

/** Pairs captured nodes with the fresh model's objects reached along the same paths, breadth first, each at most once on either side. */
function pair(fresh: object, nodes: readonly Node[]): unknown[] {
  const targets = new Array<unknown>(nodes.length);
  const taken = new Set<object>();
  const queue: [object, number][] = [[fresh, 0]];
  const visit = (f: unknown, v: Value): void => {
    if (!isRef(v) || f === null || (typeof f !== "object" && typeof f !== "function")) return;
    queue.push([f as object, v.r]);
  };
  for (let i = 0; i < queue.length; i++) {
    const [f, id] = queue[i]!;
    if (targets[id] !== undefined || taken.has(f)) continue;
    const node = nodes[id];
    if (node === undefined || !sameKind(f, node)) continue;
    targets[id] = f;
    taken.add(f);
    if (node.k === "o") {
      const own = f as Record<string, unknown>;
      for (let j = 0; j < node.keys.length; j++) {
        const d = Object.getOwnPropertyDescriptor(own, node.keys[j]!);
        if (d !== undefined && "value" in d) visit(d.value, node.vals[j]!);
      }
    } else if (node.k === "a") {
      const arr = f as unknown[];
      for (let j = 0; j < node.vals.length && j < arr.length; j++) visit(arr[j], node.vals[j]!);
    } else if (node.k === "m") {
      const map = f as Map<unknown, unknown>;
      for (let j = 0; j < node.keys.length; j++) {
        const key = node.keys[j]!;
        if (!isRef(key) && map.has(key)) visit(map.get(key), node.vals[j]!);
      }
    }
  }
  return targets;
}

function sameKind(f: object, node: Node): boolean {
  switch (node.k) {
    case "f":
      return typeof f === "function";
    case "a":
      return Array.isArray(f);
    case "m":
      return f instanceof Map;
    case "s":
      return f instanceof Set;
    case "v":
    case "d":
    case "l":
      // Never reused: a typed array cannot change its length, a copy is as good.
      return false;
    case "o":
      return typeof f === "object" && !Array.isArray(f) && !(f instanceof Map) && !(f instanceof Set) && !ArrayBuffer.isView(f) && className(f) === node.c;
  }
}

function create(node: Node, id: number, protos: ReadonlyMap<string, object | "ambiguous">): unknown {
  switch (node.k) {
    case "f":
      throw new GraphError(`node ${id}: a function with no counterpart in a fresh model (made after the start, outside the model's data)`);
    case "a":
      return [];
    case "m":
      return new Map();
    case "s":
      return new Set();
    case "d":
      return new Date(node.t);
    case "l":
      return {};
    case "v": {
      const copy = node.bytes.slice().buffer;
      return node.c === "Buffer" ? Buffer.from(copy) : new VIEWS[node.c]!(copy);
    }
    case "o": {
      if (node.c === "Object") return {};
      if (node.c === "null") return Object.create(null);
      const proto = protos.get(node.c);
      if (proto === undefined) throw new GraphError(`node ${id}: class ${node.c} is not known to this model (none in a fresh model, none given)`);
      if (proto === "ambiguous") throw new GraphError(`node ${id}: two classes are named ${node.c}`);
      return Object.create(proto);
    }
  }
}

function fill(node: Node, target: unknown, value: (v: Value) => unknown): void {
  switch (node.k) {
    case "a": {
      const arr = target as unknown[];
      if (Object.isFrozen(arr)) {
        if (arr.length !== node.vals.length || node.vals.some((v, i) => !Object.is(arr[i], value(v)))) throw new GraphError("a frozen array differs from the captured one");
        return;
      }
      arr.length = node.vals.length;
      for (let i = 0; i < node.vals.length; i++) arr[i] = value(node.vals[i]!);
      if (node.frozen) Object.freeze(arr);
      return;
    }
    case "m": {
      const map = target as Map<unknown, unknown>;
      map.clear();
      for (let i = 0; i < node.keys.length; i++) map.set(value(node.keys[i]!), value(node.vals[i]!));
      return;
    }
    case "s": {
      const set = target as Set<unknown>;
      set.clear();
      for (const v of node.vals) set.add(value(v));
      return;
    }
    case "o": {
      const o = target as Record<string, unknown>;
      if (Object.isFrozen(o)) {
        // A frozen object of the fresh model (a constant): it must already hold the captured values.
        for (let i = 0; i < node.keys.length; i++) {
          if (!Object.is(o[node.keys[i]!], value(node.vals[i]!))) throw new GraphError(`a frozen ${node.c} differs from the captured one at ${node.keys[i]}`);
        }
        return;
      }
      const keep = new Set(node.keys);
      for (const key of Object.getOwnPropertyNames(o)) if (!keep.has(key)) delete o[key];
      for (let i = 0; i < node.keys.length; i++) {
        const key = node.keys[i]!;
        const v = value(node.vals[i]!);
        Object.defineProperty(o, key, { value: v, writable: true, enumerable: true, configurable: true });
      }
      if (node.frozen) Object.freeze(o);
      return;
    }
    case "l": {
      const at = node.keys.indexOf(node.key);
      const part = (from: number, to: number): Record<string, unknown> => {
        const o: Record<string, unknown> = {};
        for (let i = from; i < to; i++) o[node.keys[i]!] = value(node.vals[i]!);
        return o;
      };
      lazyObjectInto(target as Record<string, unknown>, part(0, at), node.key, node.recipe, part(at + 1, node.keys.length));
      return;
    }
    default:
      return;
  }
}

/**
 * Where two captures differ (the first difference, said in a few words), or undefined when they
 * hold the same graph. Bytes alone cannot tell: V8 writes 5 held as a double unlike 5 held as an
 * integer.
 */
export function captureDifference(a: Buffer, b: Buffer): string | undefined {
  const x = deserialize(a) as Node[];
  const y = deserialize(b) as Node[];
  if (x.length !== y.length) return `${x.length} objects, then ${y.length}`;
  for (let id = 0; id < x.length; id++) {
    const why = nodeDifference(x[id]!, y[id]!);
    if (why !== undefined) return `object ${id}${x[id]!.k === "o" ? ` (${(x[id] as { c: string }).c})` : ""}: ${why}`;
  }
  return undefined;
}

function nodeDifference(x: Node, y: Node): string | undefined {
  if (x.k !== y.k) return `a ${x.k}, then a ${y.k}`;
  const same = (p: readonly unknown[], q: readonly unknown[]): boolean =>
    p.length === q.length && p.every((v, i) => (isRef(v as Value) && isRef(q[i] as Value) ? (v as Ref).r === (q[i] as Ref).r : Object.is(v, q[i])));
  switch (x.k) {
    case "o": {
      const z = y as typeof x;
      if (x.c !== z.c) return `class ${x.c}, then ${z.c}`;
      if (x.frozen !== z.frozen) return "frozen, then not";
      if (!same(x.keys, z.keys)) return `keys ${x.keys.join(",")}, then ${z.keys.join(",")}`;
      const i = x.vals.findIndex((v, j) => !same([v], [z.vals[j]]));
      return i === -1 ? undefined : `field ${x.keys[i]}`;
    }
    case "a":
    case "s":
      return same(x.vals, (y as typeof x).vals) && (x.k !== "a" || x.frozen === (y as typeof x).frozen) ? undefined : "items";
    case "m":
      return same(x.keys, (y as typeof x).keys) && same(x.vals, (y as typeof x).vals) ? undefined : "entries";
    case "v":
      return x.c === (y as typeof x).c && Buffer.compare(Buffer.from(x.bytes), Buffer.from((y as typeof x).bytes)) === 0 ? undefined : "bytes";
    case "d":
      return Object.is(x.t, (y as typeof x).t) ? undefined : "time";
    case "f":
      return undefined;
    case "l": {
      const z = y as typeof x;
      return x.key === z.key && same(x.keys, z.keys) && same(x.vals, z.vals) && JSON.stringify(x.recipe) === JSON.stringify(z.recipe) ? undefined : "lazy output";
    }
  }
}
