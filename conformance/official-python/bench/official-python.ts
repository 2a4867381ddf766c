/**
 * `npm run official-python -- --client-dir DIR`: the official Python client (runpod-python),
 * unmodified, against `cpsim serve` and then through `cpsim proxy --target <that emulator>`. Not
 * part of `npm test` (it needs Python, the client and its dependencies); see docs/development.md.
 *
 * Both run as a user runs them (`node bin/cpsim.js serve --json`, `node bin/cpsim.js proxy --json`,
 * 127.0.0.1, port 0). calls.py calls every public function of the client (runpod.api's
 * ctl_commands, the credentials functions, Endpoint/Job and AsyncioEndpoint/AsyncioJob) once
 * directly against the emulator and once through the proxy, and reports each call's outcome. The
 * proxy's finding lines (`FAIL <rule> [target|client]`) are counted by side; its report.json
 * groups the client findings by User-Agent.
 *
 * Prints one line per function (`ok ok get_user`: the direct outcome, the proxied one), the client
 * findings by client and rule, then
 *   python_client_functions=N ok=N emulator_errors=0 target_findings=0 client_findings=N
 * Exit 0 when every call succeeded both ways and the proxy found nothing on the target's side; 1
 * otherwise; 2 when the client or one of its dependencies is missing (the message says which).
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { packagePath } from "../../../sim/package-root.ts";

// From the package root, so that the compiled copy in dist/ (which holds no calls.py) finds them too.
const CPSIM = packagePath("bin", "cpsim.js");
const CALLS = packagePath("conformance", "official-python", "bench", "calls.py");
const CALLS_TIMEOUT_MS = 300_000;

export const USAGE = `npm run official-python -- [--client-dir DIR] [--python PATH] [--keep-reports DIR]

  --client-dir DIR     a runpod-python source tree (the directory holding runpod/); without it,
                       the runpod package that PATH's Python imports
  --python PATH        the Python to run (default /usr/bin/python3 when it exists, else python3):
                       the one whose packages hold the client's dependencies (Debian's
                       python3-requests, python3-aiohttp, ...)
  --keep-reports DIR   write the proxy's report.json, junit.xml and report.html there`;

interface Options {
  clientDir?: string;
  python: string;
  keepReports?: string;
}

class UsageError extends Error {}

function parseOptions(argv: readonly string[]): Options | "help" {
  const o: Options = { python: existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--help" || a === "-h") return "help";
    const value = argv[i + 1];
    if (!["--client-dir", "--python", "--keep-reports"].includes(a)) throw new UsageError(`unknown option ${a}`);
    if (value === undefined || value.startsWith("--")) throw new UsageError(`${a} needs a value`);
    i++;
    if (a === "--client-dir") o.clientDir = resolve(value);
    else if (a === "--python") o.python = value;
    else o.keepReports = resolve(value);
  }
  return o;
}

interface CallLine {
  fn?: string;
  ok?: boolean;
  detail?: string;
  standins?: string[];
  version?: string;
  file?: string;
  missing?: string;
  done?: number;
}

function pythonEnv(o: Options, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const path = [o.clientDir, process.env.PYTHONPATH].filter((p): p is string => !!p).join(delimiter);
  return { ...process.env, ...(path ? { PYTHONPATH: path } : {}), PYTHONUNBUFFERED: "1", ...extra };
}

/** Imports the client as calls.py does; exits 2 (by throwing UsageError) saying what is missing. */
function probe(o: Options): CallLine {
  if (o.clientDir && !existsSync(join(o.clientDir, "runpod", "__init__.py"))) {
    throw new UsageError(`${o.clientDir} holds no runpod/__init__.py: give --client-dir a runpod-python source tree (git clone https://github.com/runpod/runpod-python, or git --git-dir=MIRROR archive HEAD | tar -x -C DIR)`);
  }
  const r = spawnSync(o.python, [CALLS, "--probe"], { env: pythonEnv(o), encoding: "utf8", timeout: 120_000 });
  if (r.error) throw new UsageError(`cannot run ${o.python}: ${r.error.message} (--python PATH names another)`);
  const last = r.stdout.trim().split("\n").pop() ?? "";
  let line: CallLine = {};
  try {
    line = JSON.parse(last) as CallLine;
  } catch {
    throw new UsageError(`${o.python} could not import the client:\n${r.stderr.trim().split("\n").slice(-6).join("\n")}`);
  }
  if (line.missing === "runpod") throw new UsageError(`${o.python} finds no runpod package: give --client-dir a runpod-python source tree, or install it`);
  if (line.missing) {
    throw new UsageError(`the client's dependency ${line.missing} is missing for ${o.python}: install it (Debian: apt-get install python3-${line.missing.split(".")[0]!.replaceAll("_", "-").toLowerCase()}; or pip install runpod)`);
  }
  return line;
}

interface Started {
  readonly child: ChildProcess;
  readonly info: Record<string, unknown>;
  readonly lines: string[];
}

/** Starts `cpsim <args> --json` and resolves with its first stdout line; the rest is kept. */
function startCpsim(args: readonly string[]): Promise<Started> {
  const child = spawn(process.execPath, [CPSIM, ...args, "--json"], { stdio: ["ignore", "pipe", "pipe"] });
  const lines: string[] = [];
  const stderr = lines;
  createInterface({ input: child.stderr! }).on("line", (l) => lines.push(l)); // with --json, finding lines go to stderr
  return new Promise((resolvePromise, reject) => {
    const rl = createInterface({ input: child.stdout! });
    let first = true;
    rl.on("line", (l) => {
      if (!first) return void lines.push(l);
      first = false;
      try {
        resolvePromise({ child, info: JSON.parse(l) as Record<string, unknown>, lines });
      } catch {
        reject(new Error(`cpsim ${args[0]} printed ${l}`));
      }
    });
    child.once("exit", (code) => first && reject(new Error(`cpsim ${args[0]} exited ${code} before it listened: ${stderr.join("\n").trim()}`)));
  });
}

function stop(s: Started): Promise<number | null> {
  return new Promise((resolvePromise) => {
    if (s.child.exitCode !== null) return resolvePromise(s.child.exitCode);
    s.child.once("exit", (code) => resolvePromise(code));
    s.child.kill("SIGTERM");
  });
}

/** One pass of calls.py against (apiBase, serverless URL); resolves with its call lines. */
function runCalls(o: Options, apiBase: string, serverlessUrl: string, key: string): Promise<CallLine[]> {
  const env = pythonEnv(o, { CPSIM_PY_API_BASE: apiBase, CPSIM_PY_ENDPOINT_BASE: `${serverlessUrl}/v2`, CPSIM_PY_KEY: key, CPSIM_PY_ENDPOINT: "conformance" });
  const child = spawn(o.python, [CALLS], { env, stdio: ["ignore", "pipe", "pipe"] });
  const out: CallLine[] = [];
  const stderr: string[] = [];
  child.stderr!.setEncoding("utf8").on("data", (d: string) => stderr.push(d));
  const timer = setTimeout(() => child.kill("SIGKILL"), CALLS_TIMEOUT_MS);
  createInterface({ input: child.stdout! }).on("line", (l) => {
    try {
      out.push(JSON.parse(l) as CallLine);
    } catch {
      /* a print of the client's own */
    }
  });
  return new Promise((resolvePromise) =>
    child.once("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0) out.push({ fn: "(calls.py)", ok: false, detail: `exited ${code ?? signal}${signal === "SIGKILL" ? ` after ${CALLS_TIMEOUT_MS / 1000} s` : ""}: ${stderr.join("").trim().split("\n").slice(-3).join(" | ")}` });
      resolvePromise(out);
    }),
  );
}

interface ClientGroup {
  userAgent: string;
  exchanges: number;
  findings: number;
  rules: { id: string; count: number }[];
}

export async function officialPython(argv: readonly string[]): Promise<number> {
  let o: Options;
  let probed: CallLine;
  try {
    const parsed = parseOptions(argv);
    if (parsed === "help") {
      console.log(USAGE);
      return 0;
    }
    o = parsed;
    probed = probe(o);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`official-python: ${e.message}`);
    return 2;
  }
  console.log(`runpod-python ${probed.version} from ${probed.file}${probed.standins?.length ? ` (stand-ins for the serverless worker's ${probed.standins.join(", ")}, not installed)` : ""}`);

  const reports = o.keepReports ?? mkdtempSync(join(tmpdir(), "cpsim-official-python-"));
  const serve = await startCpsim(["serve", "--port", "0", "--host", "127.0.0.1"]);
  let proxy: Started | undefined;
  try {
    const baseUrl = serve.info.baseUrl as string;
    const serverlessUrl = serve.info.serverlessUrl as string;
    const key = (serve.info.apiKeys as { key: string; access: string }[]).find((k) => k.access === "full")!.key;
    const direct = await runCalls(o, baseUrl, serverlessUrl, key);

    proxy = await startCpsim(["proxy", "--target", baseUrl, "--port", "0", "--host", "127.0.0.1", "--fail-on", "target", "--report-dir", reports]);
    const proxied = await runCalls(o, proxy.info.baseUrl as string, proxy.info.serverlessUrl as string, key);
    const proxyExit = await stop(proxy);
    const findingLines = proxy.lines.map((l) => /^FAIL (\S+) \[(target|client)\]/.exec(l)).filter((m): m is RegExpExecArray => m !== null);
    const targetFindings = findingLines.filter((m) => m[2] === "target");
    const clientFindings = findingLines.filter((m) => m[2] === "client").length;

    const byFn = new Map<string, { direct?: CallLine; proxied?: CallLine }>();
    for (const [pass, lines] of [["direct", direct], ["proxied", proxied]] as const) {
      for (const l of lines) if (l.fn !== undefined) byFn.set(l.fn, { ...byFn.get(l.fn), [pass]: l });
    }
    let ok = 0;
    let emulatorErrors = 0;
    for (const [fn, { direct: d, proxied: p }] of byFn) {
      const word = (l?: CallLine) => (l === undefined ? "--" : l.ok ? "ok" : "FAIL");
      if (d?.ok && p?.ok) ok++;
      if (!d?.ok) emulatorErrors++;
      const failed = [d?.ok ? undefined : `direct: ${d?.detail ?? "not reached"}`, p?.ok ? undefined : `proxy: ${p?.detail ?? "not reached"}`].filter(Boolean);
      console.log(`${word(d).padEnd(4)} ${word(p).padEnd(4)} ${fn}${failed.length ? `  ${failed.join("; ")}` : ""}`);
    }
    for (const m of targetFindings) console.log(`target finding: ${m.input}`);
    const report = existsSync(join(reports, "report.json")) ? (JSON.parse(readFileSync(join(reports, "report.json"), "utf8")) as { clients?: ClientGroup[] }) : {};
    for (const c of report.clients ?? []) {
      console.log(`client ${c.userAgent}: ${c.exchanges} exchanges, ${c.findings} findings${c.rules.length ? ` (${c.rules.map((r) => `${r.id} ×${r.count}`).join(", ")})` : ""}`);
    }
    console.log(`proxy exit ${proxyExit} (--fail-on target)${o.keepReports ? `; reports in ${reports}` : ""}`);
    console.log(`python_client_functions=${byFn.size} ok=${ok} emulator_errors=${emulatorErrors} target_findings=${targetFindings.length} client_findings=${clientFindings}`);
    return ok === byFn.size && targetFindings.length === 0 && proxyExit === 0 ? 0 : 1;
  } finally {
    if (proxy) await stop(proxy);
    await stop(serve);
    if (!o.keepReports) rmSync(reports, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  officialPython(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e: unknown) => {
      console.error(`official-python: ${e instanceof Error ? e.message : String(e)}`);
      process.exitCode = 2;
    },
  );
}
