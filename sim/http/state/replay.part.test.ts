// `--state DIR`: a scripted session restarts to the same answers, byte for byte; a torn last
// record is dropped with a warning; and a reset folds the journal to its new start.
import t from "tap";
import { appendFileSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { JOURNAL_FILE } from "./state-journal.ts";
import { ALPHA, BETA, LOAD, journalLines, pod, send, stateDir } from "./state-test-helpers.ts";

t.test("a session replays to the same answers, and a torn last record is dropped", async (t) => {
  const dir = stateDir(t);
  const first = await startEmulator({ clock: "manual", seed: 7, state: dir });
  t.teardown(() => first.close());
  const base = first.baseUrl;
  const jobs: string[] = [];
  for (let i = 0; i < 3; i++) await send(base, "POST", "/v2/pods", ALPHA, pod(`a${i}`));
  await send(base, "GET", "/v2/pods", ALPHA);
  await send(base, "POST", "/v2/pods", BETA, pod("b0"));
  for (const input of [{ op: "sleep", ms: 5000 }, { op: "bytes", n: 10 }, { op: "fail", message: "no" }, { op: "sleep", ms: 60000 }]) {
    jobs.push((await send(base, "POST", "/v2/conformance/run", LOAD, { input })).body.id);
    await send(base, "GET", `/v2/conformance/status/${jobs.at(-1)}`, LOAD);
  }
  await send(base, "POST", "/_sim/clock/advance", undefined, { ms: 20_000 });
  const pods = (await send(base, "GET", "/v2/pods", ALPHA)).body.pods as { id: string }[];
  await send(base, "POST", `/v2/pods/${pods[1]!.id}/action`, ALPHA, { action: "stop" });
  await send(base, "POST", `/v2/conformance/cancel/${jobs[3]}`, LOAD);
  await send(base, "GET", `/v2/conformance/status/${jobs[1]}?ttl=15000`, LOAD);
  await send(base, "POST", "/graphql", ALPHA, { query: `mutation { podStop(input: {podId: "${pods[0]!.id}"}) { id } }` });
  await send(base, "POST", "/graphql", ALPHA, { query: "query { myself { pods { id } } }" });
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
  // The start, 4 pods, 4 runs, 2 advances, a stop, a cancel, a status with ttl and a GraphQL mutation: no read.
  t.same(
    journalLines(dir).map((r) => (r.k === "req" ? `${r.m} ${r.p}` : r.k)),
    ["start", ...Array(4).fill("POST /v2/pods"), ...Array(4).fill("POST /v2/conformance/run"), "time", `POST /v2/pods/${pods[1]!.id}/action`,
      `POST /v2/conformance/cancel/${jobs[3]}`, `GET /v2/conformance/status/${jobs[1]}`, "POST /graphql", "time"],
    "only the changes are journaled",
  );

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
  t.equal(await snapshot(third.baseUrl), before, "torn tail dropped, the rest replayed");
  await third.close();
  t.notMatch(readFileSync(join(dir, JOURNAL_FILE), "utf8"), /"p":"\/v2\/po\n/, "the torn bytes were cut off");
});

t.test("a reset folds the journal into its new start, written whole", async (t) => {
  const dir = stateDir(t);
  const a = await startEmulator({ clock: "manual", seed: 3, state: dir });
  for (let i = 0; i < 20; i++) await send(a.baseUrl, "POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 100 } });
  const grown = statSync(join(dir, JOURNAL_FILE)).size;
  t.equal(journalLines(dir).length, 21);
  t.equal((await send(a.baseUrl, "POST", "/_sim/reset", undefined, { seed: 5 })).status, 200);
  t.same(journalLines(dir), [{ k: "start", v: 1, seed: 5 }], "only the new start is left");
  t.ok(statSync(join(dir, JOURNAL_FILE)).size < grown / 10);
  const p = await send(a.baseUrl, "POST", "/v2/pods", ALPHA, pod("after-reset"));
  t.equal(p.status, 201);
  await a.close();
  const b = await startEmulator({ clock: "manual", seed: 3, state: dir });
  t.teardown(() => b.close());
  const listed = (await send(b.baseUrl, "GET", "/v2/pods", ALPHA)).body.pods as { id: string }[];
  t.same(listed.map((x) => x.id), [p.body.id], "the change after the reset is there, from seed 5");
  t.match(b.stateWarnings.join("\n"), /started with seed 5/);
});

t.test("many submissions under both header forms replay to the same ids and answers, byte for byte", async (t) => {
  const dir = stateDir(t);
  const first = await startEmulator({ clock: "manual", seed: 11, state: dir });
  const base = first.baseUrl;
  const bare = LOAD.replace(/^Bearer /, "bearer  ");
  const ids: string[] = [];
  for (let i = 0; i < 300; i++) {
    // The exact "Bearer <key>" form and one parsing has to read; sleeps that end at different times.
    const r = await send(base, "POST", "/v2/conformance/run", i % 3 === 0 ? bare : LOAD, { input: { op: "sleep", ms: (i % 7) * 700 } });
    t.equal(r.status, 200);
    ids.push(r.body.id);
    if (i % 50 === 49) await send(base, "POST", "/_sim/clock/advance", undefined, { ms: 1_500 });
  }
  await send(base, "GET", `/v2/conformance/status/${ids[5]}?ttl=60000`, bare);
  const answers = async (b: string) =>
    JSON.stringify([
      (await send(b, "GET", "/_sim/clock")).text,
      ...(await Promise.all(ids.map(async (id) => (await send(b, "GET", `/v2/conformance/status/${id}`, LOAD)).text))),
      (await send(b, "GET", "/v2/conformance/health", LOAD)).text,
    ]);
  const before = await answers(base);
  await first.close();
  t.equal(journalLines(dir).length, 1 + 300 + 6 + 1, "the start, 300 runs, 6 advances, a status with ttl");
  const second = await startEmulator({ clock: "manual", seed: 11, state: dir });
  t.teardown(() => second.close());
  t.equal(await answers(second.baseUrl), before, "the same answers, byte for byte");
  // The next id is the one the first server would have drawn.
  const next = await send(second.baseUrl, "POST", "/v2/conformance/run", LOAD, { input: { op: "sleep", ms: 1 } });
  t.notOk(ids.includes(next.body.id), "a new id, not one handed out before the restart");
});
