/**
 * A point of the open-choice space (dimensions.ts): drawn from a seed, read from a file that names
 * a value per dimension, or the emulator's own; and said back as `id=value` words.
 */
import { readFileSync } from "node:fs";
import seedrandom from "seedrandom";
import { type Conventions, DIMENSIONS, EMULATOR_CONVENTIONS } from "./dimensions.ts";

/** A --conventions value that names no point of the space. */
export class ConventionsError extends Error {
  readonly code = "CPSIM_ERR_CONVENTIONS";
}

/** The conventions of `seed`: one value per dimension, each drawn on its own. Seed 0 is the emulator's. */
export function drawConventions(seed: number): Conventions {
  if (seed === 0) return EMULATOR_CONVENTIONS;
  const rng = seedrandom.alea(`cpsim-conventions-${seed}`);
  return Object.fromEntries(DIMENSIONS.map((d) => [d.id, d.values[Math.floor(rng() * d.values.length)]!.value])) as unknown as Conventions;
}

/** Every dimension as `id=value`, in the catalog's order. */
export function describeConventions(c: Conventions): string {
  return DIMENSIONS.map((d) => `${d.id}=${c[d.id]}`).join(" ");
}

/** Only the dimensions where `c` differs from the emulator, as `id=value` (or "the emulator's"). */
export function describeDifferences(c: Conventions): string {
  const differ = DIMENSIONS.filter((d) => c[d.id] !== EMULATOR_CONVENTIONS[d.id]);
  return differ.length ? differ.map((d) => `${d.id}=${c[d.id]}`).join(" ") : "the emulator's";
}

/**
 * Conventions from an object naming values by dimension id (a conventions file's content);
 * a dimension it leaves out keeps the emulator's value.
 */
export function conventionsFrom(given: unknown, where = "the conventions"): Conventions {
  if (typeof given !== "object" || given === null || Array.isArray(given)) throw new ConventionsError(`${where} must be a JSON object naming a value per dimension, e.g. {"lists": "bare"}`);
  const out: Record<string, unknown> = { ...EMULATOR_CONVENTIONS };
  for (const [key, value] of Object.entries(given)) {
    const d = DIMENSIONS.find((x) => x.id === key);
    if (d === undefined) throw new ConventionsError(`${where}: no dimension "${key}"; the dimensions are ${DIMENSIONS.map((x) => x.id).join(", ")}`);
    const legal = d.values.map((v) => v.value as string | number);
    if (!legal.includes(value as string | number)) throw new ConventionsError(`${where}: ${key} must be one of ${legal.map((v) => JSON.stringify(v)).join(", ")}, got ${JSON.stringify(value)}`);
    out[key] = value;
  }
  return out as unknown as Conventions;
}

/** The accepted forms of a --conventions value, for error messages and help. */
export const CONVENTIONS_FORMS = "a seed (a whole number; 0 is the emulator's), a JSON file naming a value per dimension, or \"emulator\"";

/** `--conventions SEED|FILE|emulator`: the point it names, and how to say it. */
export function parseConventionsArg(text: string): { readonly conventions: Conventions; readonly source: string } {
  if (text === "emulator") return { conventions: EMULATOR_CONVENTIONS, source: "the emulator's" };
  if (/^\d+$/.test(text)) {
    const seed = Number(text);
    if (!Number.isSafeInteger(seed)) throw new ConventionsError(`--conventions ${text}: the seed is too large; give ${CONVENTIONS_FORMS}`);
    return { conventions: drawConventions(seed), source: `seed ${seed}` };
  }
  let raw: string;
  try {
    raw = readFileSync(text, "utf8");
  } catch (err) {
    throw new ConventionsError(`--conventions ${text}: not a seed, not "emulator", and not a readable file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); give ${CONVENTIONS_FORMS}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (err) {
    throw new ConventionsError(`--conventions ${text}: not JSON (${(err as Error).message}); give ${CONVENTIONS_FORMS}`);
  }
  return { conventions: conventionsFrom(json, `--conventions ${text}`), source: text };
}
