// `--state DIR`: the session is journaled before it is answered and replayed on start. A scripted
// session restarts to the same answers, byte for byte; a torn last record is dropped with a
// warning; and a server killed with SIGKILL under load keeps every pod and job it acknowledged.
import t from "tap";
import { spawn } from "node:child_process";
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { request } from "undici";
import { startEmulator } from "./emulator.ts";
import { JOURNAL_FILE } from "./state-journal.ts";

const ALPHA = "Bearer cpsim_alpha_full_7f3a9c2e41b6d805";
const BETA = "Bearer cpsim_beta_full_91d4e6a2c7b3f058";
const LOAD = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";

async function send(base: string, method: string, path: string, key?: string, body?: unknown) {
  const res = await request(base + path, {
    method: method as "GET",
    headers: { ...(key ? { authorization: key } : {}), ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, text, body: text === "" ? undefined : JSON.parse(text) };
}

const pod = (name: string) => ({ name, image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: 2 } });

t.test("a session replays to the same answers, and a torn last record is dropped", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-state-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const first = await startEmulator({ clock: "manual", seed: 7, state: dir });
  t.teardown(() => first.close());
  const base = first.baseUrl;
  const jobs: string[] = [];
  for (let i = 0; i < 3; i++) await send(base, "POST", "/v2/pods", ALPHA, pod(`a${i}`));
  await send(base, "POST", "/v2/pods", BETA, pod("b0"));
  for (const input of [{ op: "sleep", ms: 5000 }, { op: "bytes", n: 10 }, { op: "fail", message: "no" }, { op: "sleep", ms: 60000 }]) {
    jobs.push((await send(base, "POST", "/v2/conformance/run", LOAD, { input })).body.id);
  }
  await send(base, "POST", "/_sim/clock/advance", undefined, { ms: 20_000 });
  const pods = (await send(base, "GET", "/v2/pods", ALPHA)).body.pods as { id: string }[];
  await send(base, "POST", `/v2/pods/${pods[1]!.id}/action`, ALPHA, { action: "stop" });
  await send(base, "POST", `/v2/conformance/cancel/${jobs[3]}`, LOAD);
  await send(base, "GET", `/v2/conformance/status/${jobs[1]}?ttl=15000`, LOAD);
  await send(base, "POST", "/graphql", ALPHA, { query: `mutation { podStop(input: {podId: "${pods[0]!.id}"}) { id } }` });
  await send(base, "POST", "/_sim/clock/advance", undefined, { ms: 3_000 });

  const snapshot = async (b: string) =>
    JSON.stringify([
      (await send(b, "GET", "/_sim/clock")).text,
      (await send(b, "GET", "/v2/pods", ALPHA)).text,
      (await send(b, "GET", "/v2/pods", BETA)).text,
      ...(await Promise.all(jobs.map(async (id) => (await send(b, "GET", `/v2/conformance/status/${id}`, LOAD)).text))),
    ]);
  const before = await snapshot(base);
  await first.close();

  const second = await startEmulator({ clock: "manual", seed: 7, state: dir });
  t.same(second.stateWarnings, []);
  const after = await snapshot(second.baseUrl);
  t.equal(after, before, "the same answers, byte for byte");
  await second.close();

  // A crash in the middle of a write leaves part of a line.
  appendFileSync(join(dir, JOURNAL_FILE), '{"k":"req","t":23000000,"m":"POST","p":"/v2/po');
  const third = await startEmulator({ clock: "manual", seed: 99, state: dir });
  t.equal(third.stateWarnings.length, 2);
  t.match(third.stateWarnings[0], /last record .* is torn/);
  t.match(third.stateWarnings[1], /started with seed 7; it replays with that seed/);
  // The snapshot's own reads were journaled too; they change no pod or job.
  t.equal(await snapshot(third.baseUrl), before, "torn tail dropped, the rest replayed");
  await third.close();
  t.notMatch(readFileSync(join(dir, JOURNAL_FILE), "utf8"), /"p":"\/v2\/po\n/, "the torn bytes were cut off");

  appendFileSync(join(dir, JOURNAL_FILE), "garbage\tffffffff\n" + '{"k":"time","t":1}\t00000000\n');
  await t.rejects(startEmulator({ clock: "manual", state: dir }), /record \d+ is damaged/, "damage before the end is refused");
});

t.test("SIGKILL under load: every acknowledged pod and job is there after a restart", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-state-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const serve = (clock: string) => {
    const child = spawn(process.execPath, ["bin/cpsim.js", "serve", "--json", "--state", dir, "--clock", clock, "--speed", "10", "--control-token", "none"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    const ready = new Promise<string>((resolve, reject) => {
      createInterface({ input: child.stdout! }).once("line", (l) => resolve(JSON.parse(l).baseUrl));
      child.once("exit", (code) => reject(new Error(`serve exited ${code}`)));
    });
    return { child, ready };
  };
  const a = serve("real");
  const base = await a.ready;
  const pods = new Map<string, Record<string, unknown>>();
  const jobs = new Set<string>();
  let stop = false;
  const worker = async (w: number) => {
    for (let i = 0; !stop && i < 2000; i++) {
      try {
        // Pods stay well inside alpha's per-minute quota, which the replay counts again.
        if (i % 2 === 0 && pods.size < 300) {
          const r = await send(base, "POST", "/v2/pods", ALPHA, pod(`w${w}-${i}`));
          if (r.status === 201) pods.set(r.body.id, r.body);
        } else {
          const r = await send(base, "POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 100 } });
          if (r.status === 200) jobs.add(r.body.id);
        }
      } catch {
        return; // the server died mid-request: that answer never came
      }
    }
  };
  const load = Promise.all([0, 1, 2, 3].map(worker));
  await new Promise((r) => setTimeout(r, 1500));
  a.child.kill("SIGKILL");
  stop = true;
  await load;
  t.ok(pods.size > 5 && jobs.size > 5, `${pods.size} pods and ${jobs.size} jobs acknowledged before the kill`);

  const b = serve("manual");
  t.teardown(() => b.child.kill("SIGKILL"));
  const again = await b.ready;
  let missingPods = 0;
  let changed = 0;
  const listed = await send(again, "GET", "/v2/pods", ALPHA);
  t.equal(listed.status, 200);
  const byId = new Map<string, Record<string, unknown>>((listed.body.pods as Record<string, unknown>[]).map((p) => [p.id as string, p]));
  for (const [id, acked] of pods) {
    const now = byId.get(id);
    if (now === undefined) missingPods++;
    else for (const key of ["id", "name", "image", "cpu", "createdAt", "dataCenterId", "costPerHr"]) if (JSON.stringify(now[key]) !== JSON.stringify(acked[key])) changed++;
  }
  let missingJobs = 0;
  for (const id of jobs) if ((await send(again, "GET", `/v2/conformance/status/${id}`, LOAD)).status !== 200) missingJobs++;
  t.equal(missingPods, 0, `no acknowledged pod lost (of ${pods.size})`);
  t.equal(changed, 0, "their fields are the same");
  t.equal(missingJobs, 0, "no acknowledged job lost");
});
