// `--state DIR` folds its journal into a snapshot past `--state-compact-mb`: disk use follows the
// live state, a restart comes back to the same answers byte for byte, what a crash mid-fold
// leaves is cleared, and a damaged or missing snapshot stops the start instead of losing state.
import t from "tap";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { JournalDamagedError, JOURNAL_FILE, MAX_FOLD_TAIL } from "./state-journal.ts";
import { APART_CHARS } from "./model-graph.ts";
import { saves } from "./save-state.ts";
import { ALPHA, LOAD, journalLines, pod, send, stateDir } from "./state-test-helpers.ts";

const COMPACT = 16 * 1024;
const snapshots = (dir: string) => readdirSync(dir).filter((f) => f.startsWith("snapshot-"));

/** A session of jobs and pods with the clock moving, folded at least twice; returns what a client can read back. */
async function session(dir: string) {
  const e = await startEmulator({ clock: "manual", seed: 11, state: dir, stateCompactBytes: COMPACT });
  const base = e.baseUrl;
  const jobs: string[] = [];
  const sizes: number[] = [];
  let writes = 0;
  // A fold comes once the journal holds as many bytes as the last snapshot (about 600 KB here): padded inputs get there sooner.
  for (let i = 0; i < 2000 && (e.stats().journal?.snapshots ?? 0) < 2; i++) {
    // Every 40th input is long enough to be captured apart (model-graph.ts APART_CHARS) and joined on the save's thread.
    const pad = "x".repeat(i % 40 === 1 ? APART_CHARS + i : 3000);
    const r = await send(base, "POST", "/v2/conformance/run", LOAD, { input: { op: i % 7 === 0 ? "fail" : "sleep", ms: 500 * (i % 9), message: "no", pad } });
    jobs.push(r.body.id);
    writes++;
    if (i % 10 === 0 && (await send(base, "POST", "/v2/pods", ALPHA, pod(`p${i}`))).status === 201) writes++;
    if (i % 25 === 0 && (await send(base, "POST", "/_sim/clock/advance", undefined, { ms: 4_000 })).status === 200) writes++;
    sizes.push(statSync(join(dir, JOURNAL_FILE)).size);
  }
  const read = async (b: string) =>
    JSON.stringify([
      (await send(b, "GET", "/_sim/clock")).text,
      (await send(b, "GET", "/v2/pods", ALPHA)).text,
      ...(await Promise.all(jobs.map(async (id) => (await send(b, "GET", `/v2/conformance/status/${id}`, LOAD)).text))),
    ]);
  return { e, jobs, sizes, read, writes };
}

t.test("the journal is folded into a snapshot; a restart reads it and the records after it, to the same answers", async (t) => {
  const dir = stateDir(t);
  const { e, sizes, read, writes } = await session(dir);
  const stats = e.stats().journal!;
  t.ok(stats.snapshots >= 2, `${stats.snapshots} snapshots written`);
  t.equal(stats.compaction, undefined, "compaction stays on");
  t.ok(saves.thread >= 2 && saves.inline === 0, `each snapshot was checked and written on the worker thread (${saves.thread} there, ${saves.inline} here)`);
  t.equal(snapshots(dir).length, 1, "one snapshot file: the old ones are removed");
  const snapshotBytes = statSync(join(dir, snapshots(dir)[0]!)).size;
  t.equal(stats.snapshotBytes, snapshotBytes);
  const records = journalLines(dir).length - 1;
  t.ok(records < writes, `the journal holds ${records} records after the snapshot, of the ${writes} changes made`);
  t.ok(Math.min(...sizes.slice(sizes.indexOf(Math.max(...sizes)))) < Math.max(...sizes) / 2, "it was cut back after it grew");
  t.match(journalLines(dir)[0], { k: "start", v: 2, seed: 11, snap: { file: snapshots(dir)[0], bytes: snapshotBytes } }, "the start record names the snapshot");
  const before = await read(e.baseUrl);
  await e.close();

  const again = await startEmulator({ clock: "manual", seed: 11, state: dir, stateCompactBytes: COMPACT });
  t.teardown(() => again.close());
  t.same(again.stateWarnings, []);
  t.equal(await read(again.baseUrl), before, "the same answers, byte for byte");
  // And the restored model goes on: time moves, queued jobs finish.
  await send(again.baseUrl, "POST", "/_sim/clock/advance", undefined, { ms: 3 * 3600_000 });
  t.match((await send(again.baseUrl, "GET", "/v2/conformance/health", LOAD)).body.jobs, { inQueue: 0, inProgress: 0 });
});

t.test("what a crash in the middle of a fold leaves is cleared on start; a damaged or missing snapshot stops the start", async (t) => {
  const dir = stateDir(t);
  const { e, read } = await session(dir);
  const before = await read(e.baseUrl);
  await e.close();
  const [current] = snapshots(dir);
  // A newer snapshot written but never named by a journal, and a temporary one cut short.
  writeFileSync(join(dir, "snapshot-0123456789abcdef.bin"), "written, never named");
  writeFileSync(join(dir, "snapshot-fedcba9876543210.bin.tmp"), "cut short");
  const again = await startEmulator({ clock: "manual", seed: 11, state: dir });
  t.same(snapshots(dir), [current], "only the named snapshot is left");
  t.equal(await read(again.baseUrl), before);
  await again.close();

  const path = join(dir, current!);
  const good = readFileSync(path);
  const bad = Buffer.from(good);
  bad[bad.length >> 1]! ^= 0xff;
  writeFileSync(path, bad);
  const journal = readFileSync(join(dir, JOURNAL_FILE));
  await t.rejects(startEmulator({ clock: "manual", seed: 11, state: dir }), JournalDamagedError, "a damaged snapshot stops the start");
  await t.rejects(startEmulator({ clock: "manual", seed: 11, state: dir }), /is damaged: .* nothing was changed/);
  t.same(readFileSync(path), bad, "and it is left as it was");
  t.same(readFileSync(join(dir, JOURNAL_FILE)), journal, "so is the journal");

  writeFileSync(path, good);
  const renamed = join(dir, "moved-away.bin");
  writeFileSync(renamed, good);
  writeFileSync(path, "");
  await t.rejects(startEmulator({ clock: "manual", seed: 11, state: dir }), JournalDamagedError, "an emptied snapshot stops the start too");
  writeFileSync(path, good);
  const restored = await startEmulator({ clock: "manual", seed: 11, state: dir });
  t.equal(await read(restored.baseUrl), before, "put back, it restarts to the same answers");
  await restored.close();
});

t.test("--state-compact-mb 0 never folds; a backend that cannot capture its state keeps the journal whole", async (t) => {
  const dir = stateDir(t);
  const e = await startEmulator({ clock: "manual", seed: 2, state: dir, stateCompactBytes: 0 });
  t.teardown(() => e.close());
  for (let i = 0; i < 200; i++) await send(e.baseUrl, "POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 10 } });
  t.ok(statSync(join(dir, JOURNAL_FILE)).size > COMPACT);
  t.equal(e.stats().journal!.snapshots, 0);
  t.match(e.stats().journal!.compaction, /^off/);
  t.same(snapshots(dir), []);
});

t.test("a save says why it did not write: a capture that does not restore, a directory that cannot be written", async (t) => {
  const { saveStateTask } = await import("./save-state-worker.ts");
  const { PlatformBackend } = await import("../platform-backend.ts");
  const good = new PlatformBackend({ seed: 4 }).captureState()!;
  const dir = stateDir(t);
  t.match(saveStateTask({ options: { seed: 4 }, table: good, texts: [], seed: 4, dir }), { kind: "saved", ref: { bytes: good.length } });
  t.match(saveStateTask({ options: { seed: 4 }, table: Buffer.from("no model here"), texts: [], seed: 4, dir }), { kind: "differs" });
  t.match(saveStateTask({ options: { seed: 4 }, table: good, texts: [], seed: 4, dir: join(dir, "missing", "deeper") }), { kind: "unwritable", why: /cannot write a snapshot/ });
});

t.test("a fold is given up when more than MAX_FOLD_TAIL bytes of changes come in while it runs", async (t) => {
  const { openJournal } = await import("./state-journal.ts");
  const dir = stateDir(t);
  const { journal } = openJournal(dir, 1).finish();
  t.teardown(() => journal.close());
  journal.beginFold();
  journal.append({ k: "time", t: 1 });
  journal.append({ k: "req", t: 2, m: "POST", p: "/v2/conformance/run", b: { input: { pad: "x".repeat(MAX_FOLD_TAIL) } } });
  t.match(await journal.commitFold(1, { file: "snapshot-0000000000000000.bin", bytes: 1, sha256: "0" }), { ok: false, overflowed: true, why: /MiB of changes came while it ran/ });
  await journal.flushed();
  t.equal(journalLines(dir).length, 3, "the journal goes on as it was, both changes in it");
});
