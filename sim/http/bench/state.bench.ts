/**
 * `npm run bench:state [-- --writes N --cycles N]`: what `cpsim serve --state DIR` costs and keeps.
 * Prints last one line:
 *   state_bytes_per_write=B restart_s_1m=S restart_rss_mb=M kill9_cycles=C acked=A lost=L
 * - B: journal bytes per acknowledged write, over HTTP, with reads, refusals and requests
 *   without a key mixed in (they cost nothing);
 * - S, M: seconds from spawning `cpsim serve --state DIR` to its ready line, and its RSS then,
 *   on a directory of N (default 1,000,000) accepted job submissions written in-process through
 *   the same session code as the server's (writing a million over HTTP would take most of the
 *   run), folded into snapshots as the server folds them (64 MiB);
 * - D (state_mb_1m, last): the directory's size then, in MiB (journal and snapshot);
 * - C, A, L: `kill -9` cycles under load (4 clients), each after a count of acknowledged writes,
 *   the writes acknowledged in all and how many of them a restarted server no longer has.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { request } from "undici";
import { type CommandSpec, parseArgs, processIo, renderHelp } from "../../cli/args.ts";
import type { ApiRequest } from "../../api/types.ts";
import { PlatformBackend } from "../platform-backend.ts";
import { JOURNAL_FILE } from "../state/state-journal.ts";
import { StateSession } from "../state/state-session.ts";

const spec: CommandSpec = {
  name: "bench:state",
  summary: "Journal bytes per write, restart time and RSS after a million writes, and a kill -9 ledger of `cpsim serve --state`",
  usage: "npm run bench:state -- [--writes N] [--cycles N] [--per-cycle N]",
  description: "Prints state_bytes_per_write=… restart_s_1m=… restart_rss_mb=… kill9_cycles=… acked=… lost=… last.",
  flags: [
    { name: "writes", type: "integer", value: "N", help: "Accepted writes in the journal the restart is timed on", default: 1_000_000, min: 1000, max: 10_000_000 },
    { name: "cycles", type: "integer", value: "N", help: "kill -9 cycles", default: 10, min: 1, max: 1000 },
    { name: "per-cycle", type: "integer", value: "N", help: "Acknowledged writes before each kill", default: 200, min: 1, max: 100_000 },
  ],
  examples: ["npm run bench:state", "npm run bench:state -- --writes 100000 --cycles 3"],
};

const LOAD = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";
const RUN = { input: { op: "bytes", n: 16 } };
const RUN_BYTES = String(Buffer.byteLength(JSON.stringify(RUN)));

interface Child {
  readonly pid: number;
  readonly ready: Promise<string>;
  kill(signal: NodeJS.Signals): Promise<void>;
}

function serve(dir: string, clock: "real" | "manual"): Child {
  const child = spawn(process.execPath, ["bin/cpsim.js", "serve", "--json", "--state", dir, "--clock", clock, "--speed", "10", "--control-token", "none"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const ready = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l).baseUrl as string));
    child.once("exit", (code) => reject(new Error(`cpsim serve exited ${code}`)));
  });
  ready.catch(() => undefined);
  return {
    pid: child.pid!,
    ready,
    kill: async (signal) => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

async function send(base: string, method: string, path: string, key?: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await request(base + path, {
    method: method as "GET",
    headers: { ...(key ? { authorization: key } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: text === "" ? undefined : JSON.parse(text) };
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Journal bytes per acknowledged write over HTTP, with reads and refusals mixed in. */
async function bytesPerWrite(dir: string): Promise<number> {
  const server = serve(dir, "manual");
  try {
    const base = await server.ready;
    const start = statSync(join(dir, JOURNAL_FILE)).size;
    let acked = 0;
    for (let i = 0; i < 1000; i++) {
      if ((await send(base, "POST", "/v2/conformance/run", LOAD, RUN)).status === 200) acked++;
      await send(base, "GET", "/v2/conformance/health", LOAD);
      await send(base, "POST", "/v2/conformance/run", undefined, RUN);
    }
    return (statSync(join(dir, JOURNAL_FILE)).size - start) / acked;
  } finally {
    await server.kill("SIGTERM");
  }
}

/** A directory of `writes` accepted submissions, kept by a state session in-process; returns the snapshots it wrote. */
async function writeJournal(dir: string, writes: number): Promise<{ snapshots: number; lastFoldMs: readonly number[] | undefined }> {
  const backend = new PlatformBackend({ seed: 1 });
  const session = StateSession.open(backend, { dir, seed: 1, warn: (m) => processIo.stderr(`bench:state: ${m}\n`) });
  const durable = () => new Promise<void>((resolve, reject) => session.whenDurable(resolve, (r) => reject(new Error(JSON.stringify(r.body))), true));
  let t = 0;
  for (let i = 0; i < writes; i++) {
    // One submission every 20 virtual ms (50 a second): jobs finish and expire (30 minutes after)
    // as under steady load, so about 90,000 are held at the end.
    t += 20_000;
    backend.advanceTo(t);
    const r: ApiRequest = { method: "POST", path: "/v2/conformance/run", query: {}, headers: { authorization: LOAD, "content-length": RUN_BYTES }, body: RUN };
    const outcome = backend.handle(r);
    const status = outcome.kind === "response" ? outcome.response.status : "wait";
    // Kept as the server keeps it: the key and the body's wire size (state-session.ts).
    session.request(r, t, status);
    if (i % 2048 === 2047) {
      await durable();
      backend.drainWebhooks();
    }
    if (i % 100_000 === 99_999) processIo.stderr(`bench:state: ${i + 1} writes journaled\n`);
  }
  await durable();
  const { snapshots, lastFoldMs } = session.stats();
  await session.close();
  return { snapshots, lastFoldMs };
}

function directoryBytes(dir: string): number {
  return readdirSync(dir).reduce((sum, f) => sum + statSync(join(dir, f)).size, 0);
}

async function restart(dir: string): Promise<{ seconds: number; rss: number }> {
  const started = performance.now();
  const server = serve(dir, "manual");
  await server.ready;
  const seconds = (performance.now() - started) / 1000;
  const rss = rssMb(server.pid);
  await server.kill("SIGTERM");
  return { seconds, rss };
}

/** kill -9 after `perCycle` acknowledged writes, `cycles` times; every acknowledged job must be there after each restart. */
async function killCycles(dir: string, cycles: number, perCycle: number): Promise<{ acked: number; lost: number }> {
  const acked: string[] = [];
  let lost = 0;
  for (let c = 0; c < cycles; c++) {
    const server = serve(dir, "real");
    const base = await server.ready;
    // What the previous cycles acknowledged is all there.
    const missing = (await Promise.all(acked.map(async (id) => (await send(base, "GET", `/v2/conformance/status/${id}`, LOAD)).status))).filter((s) => s === 404).length;
    lost += missing;
    let count = 0;
    let dead = false;
    let reached!: () => void;
    const enough = new Promise<void>((r) => (reached = r));
    const client = async () => {
      while (!dead) {
        try {
          const r = await send(base, "POST", "/v2/conformance/run", LOAD, RUN);
          if (r.status === 200) {
            acked.push(r.body.id as string);
            if (++count >= perCycle) reached();
          }
        } catch {
          return;
        }
      }
    };
    const clients = Promise.all([0, 1, 2, 3].map(client));
    await enough;
    await server.kill("SIGKILL");
    dead = true;
    await clients;
    processIo.stderr(`bench:state: cycle ${c + 1}: ${count} acknowledged before kill -9, ${missing} of the earlier ${acked.length - count} missing\n`);
  }
  const server = serve(dir, "manual");
  const base = await server.ready;
  lost += (await Promise.all(acked.slice(-perCycle * 2).map(async (id) => (await send(base, "GET", `/v2/conformance/status/${id}`, LOAD)).status))).filter((s) => s === 404).length;
  await server.kill("SIGTERM");
  return { acked: acked.length, lost };
}

async function main(): Promise<number> {
  const parsed = parseArgs(spec, process.argv.slice(2));
  if (parsed.help) {
    processIo.stdout(renderHelp(spec));
    return 0;
  }
  const { writes, cycles } = parsed.flags as { writes: number; cycles: number };
  const perCycle = parsed.flags["per-cycle"] as number;
  const root = mkdtempSync(join(tmpdir(), "cpsim-bench-state-"));
  try {
    const perWrite = await bytesPerWrite(join(root, "bytes"));
    processIo.stderr(`bench:state: ${perWrite.toFixed(1)} journal bytes per acknowledged write\n`);
    const journalStarted = performance.now();
    const folds = await writeJournal(join(root, "big"), writes);
    const size = directoryBytes(join(root, "big"));
    const ms = folds.lastFoldMs?.map((v) => v.toFixed(0));
    const fold = ms === undefined ? "none" : `capture ${ms[0]} ms on the event loop, check and write ${ms[1]} ms on a worker thread, new journal ${ms[2]} ms on the journal's thread`;
    processIo.stderr(
      `bench:state: ${writes} writes, ${(size / 2 ** 20).toFixed(1)} MiB kept (${folds.snapshots} snapshots written; the last: ${fold}), in ${((performance.now() - journalStarted) / 1000).toFixed(1)} s\n`,
    );
    const restarted = await restart(join(root, "big"));
    rmSync(join(root, "big"), { recursive: true, force: true });
    const ledger = await killCycles(join(root, "kill"), cycles, perCycle);
    const scale = writes === 1_000_000 ? "" : ` (over ${writes} writes)`;
    if (scale) processIo.stderr(`bench:state: restart_s_1m is measured${scale}\n`);
    processIo.stdout(
      `state_bytes_per_write=${perWrite.toFixed(1)} restart_s_1m=${restarted.seconds.toFixed(2)} restart_rss_mb=${restarted.rss.toFixed(0)} ` +
        `kill9_cycles=${cycles} acked=${ledger.acked} lost=${ledger.lost} state_mb_1m=${(size / 2 ** 20).toFixed(1)}\n`,
    );
    return ledger.lost === 0 ? 0 : 1;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  (code) => process.exit(code),
  (err) => {
    processIo.stderr(`bench:state: ${(err as Error).stack ?? err}\n`);
    process.exit(70);
  },
);
