/**
 * `--config FILE`: a JSON object holding any flag of `cpsim conform`, so a pipeline keeps one
 * file. Keys are the flags' names as --help prints them (`"min-coverage": 75`) or in camelCase
 * (`"minCoverage": 75`); keys starting with `$` are comments. The file's flags become arguments
 * placed before the command line's, and a flag given on the command line wins over the file's,
 * so the same parser validates both and a bad value is named with the file it came from.
 */
import { readFile } from "node:fs/promises";
import { UsageError, type CommandSpec, type FlagSpec } from "../sim/cli/args.ts";

/** The most a config file may hold (it is a handful of flags). */
const MAX_CONFIG_BYTES = 256 * 1024;

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The flag a key names: as printed, camelCase, or an option name (maxDurationS). */
function flagOf(spec: CommandSpec, key: string): FlagSpec | undefined {
  const names = [key, kebab(key), kebab(key).replace(/-s$/, "")];
  return spec.flags.find((f) => names.includes(f.name));
}

/** Whether argv gives the flag itself (`--name`, `--name=value`, `--no-name`). */
function givenOnCommandLine(argv: readonly string[], name: string): boolean {
  return argv.some((a) => a === `--${name}` || a.startsWith(`--${name}=`) || a === `--no-${name}`);
}

export async function argsFromConfig(spec: CommandSpec, file: string, argv: readonly string[]): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (err) {
    throw new UsageError(`--config ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`, spec.name);
  }
  if (text.length > MAX_CONFIG_BYTES) throw new UsageError(`--config ${file}: larger than ${MAX_CONFIG_BYTES} bytes; it holds flags only`, spec.name);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`--config ${file}: not JSON (${err instanceof Error ? err.message : String(err)})`, spec.name);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new UsageError(`--config ${file}: must be a JSON object of flags, e.g. {"target": "https://api.example.com", "min-coverage": 75}`, spec.name);
  }
  const args: string[] = [];
  for (const [key, value] of Object.entries(json)) {
    if (key.startsWith("$")) continue;
    const flag = flagOf(spec, key);
    if (!flag) throw new UsageError(`--config ${file}: "${key}" is no flag of cpsim ${spec.name}; run "cpsim ${spec.name} --help" for the flags`, spec.name);
    if (flag.name === "config") throw new UsageError(`--config ${file}: a config file cannot name another (--config)`, spec.name);
    if (givenOnCommandLine(argv, flag.name)) continue;
    const bad = (what: string) => new UsageError(`--config ${file}: "${key}" must be ${what}, got ${JSON.stringify(value)}`, spec.name);
    if (flag.type === "boolean") {
      if (typeof value !== "boolean") throw bad("true or false");
      args.push(value ? `--${flag.name}` : `--no-${flag.name}`);
    } else if (flag.multiple && Array.isArray(value)) {
      for (const v of value) {
        if (typeof v !== "string") throw bad("a string or a list of strings");
        args.push(`--${flag.name}=${v}`);
      }
    } else {
      if (typeof value !== "string" && typeof value !== "number") throw bad(flag.type === "integer" || flag.type === "number" ? "a number" : "a string");
      args.push(`--${flag.name}=${String(value)}`);
    }
  }
  return args;
}
