// SIGKILL under load: every pod and job the server acknowledged is there after a restart. The
// kill comes after a count of acknowledged writes, not after a time, so a busy machine only
// makes the test slower, never wrong.
import t from "tap";
import { readdirSync } from "node:fs";
import { ALPHA, LOAD, pod, send, serveChild, stateDir } from "./state-test-helpers.ts";

/** Acknowledged writes of each kind before the kill. */
const BEFORE_KILL = 40;

const hasSnapshot = (dir: string) => readdirSync(dir).some((f) => f.startsWith("snapshot-") && f.endsWith(".bin"));

for (const compact of [false, true]) t.test(`SIGKILL under load${compact ? ", after the journal was folded into a snapshot" : ""}: every acknowledged pod and job is there after a restart`, async (t) => {
  const dir = stateDir(t);
  // Folded after 20 KB: the kill comes once a snapshot is there and writes went on after it.
  const a = serveChild(["--state", dir, "--clock", "real", "--speed", "10", ...(compact ? ["--state-compact-mb", "0.02"] : [])]);
  t.teardown(() => a.child.kill("SIGKILL"));
  const base = await a.ready;
  const pods = new Map<string, Record<string, unknown>>();
  const jobs = new Set<string>();
  let killed = false;
  let afterSnapshot = compact ? -1 : BEFORE_KILL;
  let reached!: () => void;
  const enough = new Promise<void>((r) => (reached = r));
  const worker = async (w: number) => {
    for (let i = 0; !killed && i < 2000; i++) {
      try {
        // Pods stay well inside alpha's per-minute quota, which the replay counts again.
        if (i % 2 === 0 && pods.size < 300) {
          const r = await send(base, "POST", "/v2/pods", ALPHA, pod(`w${w}-${i}`));
          if (r.status === 201) pods.set(r.body.id, r.body);
        } else {
          const r = await send(base, "POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 100 } });
          if (r.status === 200) jobs.add(r.body.id);
        }
        if (afterSnapshot < 0 && hasSnapshot(dir)) afterSnapshot = 0;
        else if (afterSnapshot >= 0) afterSnapshot++;
        if (pods.size >= BEFORE_KILL && jobs.size >= BEFORE_KILL && afterSnapshot >= BEFORE_KILL) reached();
      } catch {
        return; // the server died mid-request: that answer never came
      }
    }
    reached();
  };
  const load = Promise.all([0, 1, 2, 3].map(worker));
  await enough;
  a.child.kill("SIGKILL");
  killed = true;
  await load;
  await a.exited;
  t.ok(pods.size >= BEFORE_KILL && jobs.size >= BEFORE_KILL, `${pods.size} pods and ${jobs.size} jobs acknowledged before the kill`);
  if (compact) t.ok(afterSnapshot >= BEFORE_KILL, `a snapshot was written, and ${afterSnapshot} writes were acknowledged after it`);

  // The killed server's lock is stale: the next one takes it over.
  const b = serveChild(["--state", dir, "--clock", "manual"]);
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
