/**
 * Parameter checks shared by the random streams and the engine. Each throws InvalidParameterError
 * naming the parameter, so that a bad scenario file points at the number that is wrong.
 */
import { InvalidParameterError } from "./errors.ts";

export function finite(name: string, value: number): number {
  if (typeof value !== "number" || !Number.isFinite(value)) {
    throw new InvalidParameterError(name, value, "a finite number");
  }
  return value;
}

export function positive(name: string, value: number): number {
  if (typeof value !== "number" || !(value > 0) || value === Infinity) {
    throw new InvalidParameterError(name, value, "a finite number > 0");
  }
  return value;
}

export function nonNegative(name: string, value: number): number {
  if (typeof value !== "number" || !(value >= 0) || value === Infinity) {
    throw new InvalidParameterError(name, value, "a finite number >= 0");
  }
  return value;
}

export function probability(name: string, value: number): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    throw new InvalidParameterError(name, value, "a probability in [0, 1]");
  }
  return value;
}

export function safeInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value)) throw new InvalidParameterError(name, value, "a safe integer");
  return value;
}

export function nonEmpty<T>(name: string, items: readonly T[]): readonly T[] {
  if (!Array.isArray(items) || items.length === 0) {
    throw new InvalidParameterError(name, items, "a non-empty array");
  }
  return items;
}
