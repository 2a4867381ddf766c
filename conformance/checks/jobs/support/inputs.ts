/**
 * Inputs for the conformance handler (spec/conformance-handler.md) and what each must produce:
 * the generators the job checks draw from, and the contract's expected outcome of an input.
 */
import { isDeepStrictEqual } from "node:util";
import * as fc from "fast-check";
import { contractFiller } from "../../../contract/handler-contract.ts";

export type Input = Readonly<Record<string, unknown>>;

/** A JSON value as it comes back from a round trip (no -0, no undefined, no prototype keys). */
export function roundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/**
 * Keys a hardened server may refuse in any JSON body (`__proto__`, and `constructor` with a
 * `prototype`: the emulator does, as fastify's poisoning guards do). The spec allows them in an
 * input, but a check must not turn on them, so generated inputs leave them out.
 */
const POISON_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export function withoutPoisonKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withoutPoisonKeys(v)) as T;
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value as Record<string, unknown>)
      .filter(([k]) => !POISON_KEYS.has(k))
      .map(([k, v]) => [k, withoutPoisonKeys(v)]),
  ) as T;
}

/** Deep equality of JSON values, key order aside. */
export function sameJson(a: unknown, b: unknown): boolean {
  return isDeepStrictEqual(roundTrip(a), roundTrip(b));
}

/**
 * Inputs the handler echoes: objects without an `op` key, holding any JSON (unicode strings
 * included). The key pattern never yields `op`, so no generated input selects another behaviour;
 * prototype-poisoning keys are left out (see withoutPoisonKeys).
 */
export function echoInputArb(): fc.Arbitrary<Input> {
  const key = fc.stringMatching(/^[a-np-z][a-zA-Z0-9_]{0,9}$/);
  return fc
    .dictionary(key, fc.jsonValue({ maxDepth: 2, stringUnit: "grapheme" }), { maxKeys: 4, noNullPrototype: true })
    .map((d) => withoutPoisonKeys(roundTrip(d)) as Input);
}

/** Extra fields an input may carry beside its `op` (the handler ignores them). */
export function extraFieldsArb(): fc.Arbitrary<Input> {
  const key = fc.stringMatching(/^x_[a-z0-9]{1,8}$/);
  return fc.dictionary(key, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2, noNullPrototype: true }).map((d) => withoutPoisonKeys(roundTrip(d)) as Input);
}

/** Failure messages that survive any sensible error formatting unchanged. */
export function failMessageArb(): fc.Arbitrary<string> {
  return fc.stringMatching(/^[a-z][a-z0-9 ]{2,24}[a-z0-9]$/).map((s) => `cpsim ${s}`);
}

export const sleep = (ms: number, extra: Input = {}): Input => ({ ...extra, op: "sleep", ms });
export const fail = (message: string): Input => ({ op: "fail", message });
export const bytes = (n: number): Input => ({ op: "bytes", n });
export const stream = (chunks: number, size: number, ms = 0): Input => ({ op: "stream", chunks, bytes: size, ms });

export type Expected = { readonly kind: "output"; readonly output: unknown } | { readonly kind: "fail"; readonly message: string };

/** What the conformance handler does with an input (for the inputs these generators make). */
export function expectedOf(input: Input): Expected {
  switch (input["op"]) {
    case undefined:
    case "echo":
      return { kind: "output", output: input };
    case "sleep":
      return { kind: "output", output: { slept_ms: input["ms"] } };
    case "bytes":
      return { kind: "output", output: contractFiller(Number(input["n"])) };
    case "stream":
      return { kind: "output", output: Array.from({ length: Number(input["chunks"]) }, () => contractFiller(Number(input["bytes"]))) };
    case "fail":
      return { kind: "fail", message: String(input["message"]) };
    default:
      return { kind: "fail", message: String(input["op"]) };
  }
}
