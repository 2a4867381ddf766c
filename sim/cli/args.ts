/**
 * A small declarative flag parser shared by every command's cli.ts.
 *
 * Each command declares its flags once (name, type, default, help); the same declaration
 * parses argv, validates values, and renders `--help`. Any problem raises UsageError, which
 * the dispatcher turns into exit code 2 with a message saying what was wrong and what to do.
 */

export type FlagType = "string" | "integer" | "number" | "boolean" | "enum";

export interface FlagSpec {
  readonly name: string;
  readonly type: FlagType;
  readonly help: string;
  /** Placeholder shown in help, e.g. "URL". */
  readonly value?: string;
  readonly default?: string | number | boolean;
  readonly choices?: readonly string[];
  readonly min?: number;
  readonly max?: number;
  /** May be given more than once; values are collected into an array. */
  readonly multiple?: boolean;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  /** Names of positional arguments, for help and count checking. */
  readonly positionals?: readonly { name: string; help: string; required?: boolean }[];
  readonly examples?: readonly string[];
  readonly description?: string;
}

export type FlagValue = string | number | boolean | string[];

export interface ParsedArgs {
  readonly flags: Record<string, FlagValue | undefined>;
  readonly positionals: string[];
  readonly help: boolean;
}

export class UsageError extends Error {
  override readonly name = "UsageError";
  readonly code = "CPSIM_ERR_USAGE";
  constructor(message: string, readonly command?: string) {
    super(message);
  }
}

function parseValue(spec: FlagSpec, raw: string): string | number | boolean {
  const flag = `--${spec.name}`;
  switch (spec.type) {
    case "string":
      if (raw === "") throw new UsageError(`${flag} needs a non-empty value`);
      return raw;
    case "boolean":
      if (raw === "true") return true;
      if (raw === "false") return false;
      throw new UsageError(`${flag} takes no value (or true/false), got "${raw}"`);
    case "enum":
      if (!spec.choices?.includes(raw)) {
        throw new UsageError(`${flag} must be one of ${spec.choices?.join(", ")}, got "${raw}"`);
      }
      return raw;
    case "integer":
    case "number": {
      const n = Number(raw);
      const ok = raw.trim() !== "" && Number.isFinite(n) && (spec.type === "number" || Number.isSafeInteger(n));
      if (!ok) throw new UsageError(`${flag} must be ${spec.type === "integer" ? "a whole number" : "a number"}, got "${raw}"`);
      if (spec.min !== undefined && n < spec.min) throw new UsageError(`${flag} must be at least ${spec.min}, got ${raw}`);
      if (spec.max !== undefined && n > spec.max) throw new UsageError(`${flag} must be at most ${spec.max}, got ${raw}`);
      return n;
    }
  }
}

function closest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    const d = editDistance(name, c);
    if (d < bestScore) {
      bestScore = d;
      best = c;
    }
  }
  return bestScore <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** Parses argv (without the command name) against the command's declaration. */
export function parseArgs(spec: CommandSpec, argv: readonly string[]): ParsedArgs {
  const byName = new Map(spec.flags.map((f) => [f.name, f]));
  const flags: Record<string, FlagValue | undefined> = {};
  const positionals: string[] = [];
  let help = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === "--help" || arg === "-h") {
      help = true;
      continue;
    }
    if (!arg.startsWith("--") || arg === "--") {
      if (arg.startsWith("-") && arg.length > 1) {
        throw new UsageError(`unknown option "${arg}"; run "cpsim ${spec.name} --help" for the options`, spec.name);
      }
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    let name = eq === -1 ? arg.slice(2) : arg.slice(2, eq);
    let inline: string | undefined = eq === -1 ? undefined : arg.slice(eq + 1);
    let negated = false;
    if (!byName.has(name) && name.startsWith("no-") && byName.get(name.slice(3))?.type === "boolean") {
      name = name.slice(3);
      negated = true;
    }
    const f = byName.get(name);
    if (!f) {
      const hint = closest(name, [...byName.keys()]);
      throw new UsageError(
        `unknown option "--${name}"${hint ? ` (did you mean "--${hint}"?)` : ""}; run "cpsim ${spec.name} --help" for the options`,
        spec.name,
      );
    }
    let value: string | number | boolean;
    if (f.type === "boolean") {
      value = inline === undefined ? !negated : parseValue(f, inline);
      if (negated && inline !== undefined) throw new UsageError(`--no-${name} takes no value`, spec.name);
    } else {
      if (inline === undefined) {
        const next = argv[i + 1];
        if (next === undefined || (next.startsWith("--") && next.length > 2)) {
          throw new UsageError(`--${name} needs a value${f.value ? ` (${f.value})` : ""}`, spec.name);
        }
        inline = next;
        i++;
      }
      value = parseValue(f, inline);
    }
    if (f.multiple) {
      const prev = flags[name];
      flags[name] = [...(Array.isArray(prev) ? prev : []), String(value)];
    } else {
      if (flags[name] !== undefined) throw new UsageError(`--${name} was given more than once`, spec.name);
      flags[name] = value;
    }
  }
  for (const f of spec.flags) {
    if (flags[f.name] === undefined && f.default !== undefined) flags[f.name] = f.default;
  }
  if (!help) {
    const declared = spec.positionals ?? [];
    const required = declared.filter((p) => p.required).length;
    if (positionals.length > declared.length) {
      throw new UsageError(
        `unexpected argument "${positionals[declared.length]}"; run "cpsim ${spec.name} --help" for the usage`,
        spec.name,
      );
    }
    if (positionals.length < required) {
      throw new UsageError(`missing ${declared[positionals.length].name}; usage: ${spec.usage}`, spec.name);
    }
  }
  return { flags, positionals, help };
}

/** Renders `cpsim COMMAND --help` from the same declaration the parser uses. */
export function renderHelp(spec: CommandSpec): string {
  const lines = [`cpsim ${spec.name}: ${spec.summary}`, "", `Usage: ${spec.usage}`];
  if (spec.description) lines.push("", spec.description);
  if (spec.positionals?.length) {
    lines.push("", "Arguments:");
    for (const p of spec.positionals) lines.push(`  ${p.name.padEnd(28)} ${p.help}`);
  }
  lines.push("", "Options:");
  const rows = spec.flags.map((f) => {
    const left = `--${f.name}${f.type === "boolean" ? "" : ` ${f.value ?? (f.type === "enum" ? f.choices?.join("|") : f.type.toUpperCase())}`}`;
    const extra: string[] = [];
    if (f.default !== undefined && f.default !== false) extra.push(`default: ${f.default}`);
    if (f.multiple) extra.push("repeatable");
    return [left, `${f.help}${extra.length ? ` (${extra.join("; ")})` : ""}`] as const;
  });
  rows.push(["--help, -h", "Show this help"]);
  for (const [left, right] of rows) lines.push(`  ${left.padEnd(28)} ${right}`);
  if (spec.examples?.length) {
    lines.push("", "Examples:");
    for (const e of spec.examples) lines.push(`  ${e}`);
  }
  lines.push("", "Exit codes: 0 success, 1 failures found, 2 usage or configuration error.");
  return lines.join("\n") + "\n";
}

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

export const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
};

/** What every command module exports for the dispatcher. */
export interface CommandModule {
  readonly spec: CommandSpec;
  /** Returns the exit code; throws UsageError for bad usage. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}
