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
  /** An action of its own (like --help, --list): given, the command needs none of its positionals. */
  readonly alone?: boolean;
}

export interface CommandSpec {
  readonly name: string;
  readonly summary: string;
  /**
   * The usage line(s) as written, for their grouping ([--a [--b]], alternatives on more lines).
   * Help prints it with every flag of the table it does not mention appended (see usageLine), so
   * a flag added to the table is in the usage line without anyone editing it.
   */
  readonly usage: string;
  readonly flags: readonly FlagSpec[];
  /** Names of positional arguments, for help and count checking. */
  readonly positionals?: readonly { name: string; help: string; required?: boolean }[];
  readonly examples?: readonly string[];
  readonly description?: string;
  /**
   * What each exit code means for this command, e.g. [[0, "all rules passed"], [1, "a rule failed"]].
   * Absent: 0 success, 1 failures found, 2 usage or configuration error.
   */
  readonly exitCodes?: readonly (readonly [code: number, meaning: string])[];
}

/** The exit codes of a command that has no table of its own. */
export const DEFAULT_EXIT_CODES: readonly (readonly [number, string])[] = [
  [0, "success"],
  [1, "failures found"],
  [2, "usage or configuration error"],
];

/** A flag as the usage line shows it: [--name VALUE], [--name] for a switch, ... when repeatable. */
function usageToken(f: FlagSpec): string {
  const value = f.type === "boolean" ? "" : ` ${f.value ?? (f.type === "enum" ? (f.choices ?? []).join("|") : f.type.toUpperCase())}`;
  return `[--${f.name}${value}]${f.multiple ? "..." : ""}`;
}

/** Whether the usage text names the flag (as --name, not as the start of a longer --name-more). */
function mentions(usage: string, name: string): boolean {
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return new RegExp(`--(no-)?${escaped}(?![\\w-])`).test(usage);
}

/** Width past which help wraps a usage line (at spaces outside brackets). */
const USAGE_WIDTH = 100;

/** Words of a usage line, a bracketed group ([--a [--b N]]) kept as one. */
function usageWords(line: string): string[] {
  const words: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i <= line.length; i++) {
    const c = line[i];
    if (c === "[") depth++;
    else if (c === "]") depth--;
    else if ((c === " " || c === undefined) && depth <= 0) {
      if (i > start) words.push(line.slice(start, i));
      start = i + 1;
    }
  }
  return words;
}

/** One usage form wrapped to USAGE_WIDTH; `column` is where it starts, continuation lines hang under its first argument. */
function wrapUsage(form: string, column: number): string {
  const words = usageWords(form);
  const hang = " ".repeat(column + words.slice(0, 2).join(" ").length + 1);
  const lines: string[] = [];
  let current = words.slice(0, 2).join(" ");
  for (const word of words.slice(2)) {
    const start = lines.length === 0 ? column : 0;
    if (start + current.length + 1 + word.length > USAGE_WIDTH && current.trim() !== "") {
      lines.push(current);
      current = hang + word;
    } else {
      current = `${current} ${word}`;
    }
  }
  lines.push(current);
  return lines.join("\n");
}

/**
 * The usage line help prints: the spec's own, with every flag of its table that it does not name
 * appended to its first form, wrapped at USAGE_WIDTH. Generated from the table, so it cannot fall
 * behind the flags listed below it.
 */
export function usageLine(spec: CommandSpec): string {
  const [first, ...more] = spec.usage.split("\n");
  const missing = spec.flags.filter((f) => !mentions(spec.usage, f.name)).map(usageToken);
  const column = "Usage: ".length;
  const forms = [missing.length === 0 ? first : `${first} ${missing.join(" ")}`, ...more];
  return forms.map((form, i) => {
    const text = form.trimStart();
    const lead = i === 0 ? "" : " ".repeat(column);
    return lead + wrapUsage(text, column);
  }).join("\n");
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
  const alone = spec.flags.some((f) => f.alone === true && flags[f.name] !== undefined && flags[f.name] !== false);
  if (!help) {
    const declared = spec.positionals ?? [];
    const required = declared.filter((p) => p.required).length;
    if (positionals.length > declared.length) {
      throw new UsageError(
        `unexpected argument "${positionals[declared.length]}"; run "cpsim ${spec.name} --help" for the usage`,
        spec.name,
      );
    }
    if (positionals.length < required && !alone) {
      throw new UsageError(`missing ${declared[positionals.length].name}; usage: ${spec.usage}`, spec.name);
    }
  }
  return { flags, positionals, help };
}

/**
 * "npx cpsim NAME ARGS --flag value ..." for the reproduce line of a banner: every flag of the table
 * whose value is not its default, in table order, quoted for a POSIX shell, so that a flag added
 * to the table shows up without the banner being edited. `omit` leaves out flags that do not
 * shape the run (output, ports, secrets); `always` keeps a flag even at its default (the seed).
 */
export function reproduceCommand(
  spec: CommandSpec,
  parsed: Pick<ParsedArgs, "flags" | "positionals">,
  options: { readonly omit?: readonly string[]; readonly always?: readonly string[] } = {},
): string {
  const words = ["cpsim", spec.name, ...parsed.positionals];
  for (const f of spec.flags) {
    if (options.omit?.includes(f.name)) continue;
    const value = parsed.flags[f.name];
    if (value === undefined) continue;
    if (value === f.default && !options.always?.includes(f.name)) continue;
    if (f.type === "boolean") {
      if (value === true) words.push(`--${f.name}`);
      else if (f.default === true) words.push(`--no-${f.name}`);
      continue;
    }
    for (const v of Array.isArray(value) ? value : [value]) words.push(`--${f.name}`, String(v));
  }
  // `npx cpsim`: cpsim is not on PATH after `npm ci` (the README says so), and npx finds it in a clone or a project that installed it.
  return `npx ${words.map(shellWord).join(" ")}`;
}

/** A word as a POSIX shell reads it back: bare when safe, else single-quoted. */
function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** Renders `cpsim COMMAND --help` from the same declaration the parser uses. */
export function renderHelp(spec: CommandSpec): string {
  const lines = [`cpsim ${spec.name}: ${spec.summary}`, "", `Usage: ${usageLine(spec)}`];
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
  // A flag too wide for its column gets a line of its own, its help below it in the column.
  for (const [left, right] of rows) lines.push(left.length < 28 ? `  ${left.padEnd(28)} ${right}` : `  ${left}\n  ${"".padEnd(28)} ${right}`);
  if (spec.examples?.length) {
    lines.push("", "Examples:");
    for (const e of spec.examples) lines.push(`  ${e}`);
  }
  lines.push("", "Exit codes:");
  for (const [code, meaning] of spec.exitCodes ?? DEFAULT_EXIT_CODES) lines.push(`  ${String(code).padEnd(3)} ${meaning}`);
  return lines.join("\n") + "\n";
}

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Whether stderr is a terminal: progress redraws one line there, and prints whole lines otherwise (see progress-line.ts). */
  readonly stderrIsTTY?: boolean;
}

export const processIo: CliIo = {
  stdout: (t) => process.stdout.write(t),
  stderr: (t) => process.stderr.write(t),
  get stderrIsTTY() {
    return process.stderr.isTTY === true;
  },
};

/** What every command module exports for the dispatcher. */
export interface CommandModule {
  readonly spec: CommandSpec;
  /** Returns the exit code; throws UsageError for bad usage. */
  run(argv: readonly string[], io: CliIo): Promise<number>;
}
