// Virtual time over HTTP: the manual clock and its control API, reset, --no-control, waits that
// end by job completion, by deadline, by the client leaving and by reset; the real clock's timer.
import t from "tap";
import { call, sleep, startTestServer } from "./test-helpers.ts";

const json = { "content-type": "application/json" };

t.test("manual clock: read, advance (validated), jobs follow virtual time", async (t) => {
  const s = await startTestServer({ clock: "manual" });
  t.teardown(() => s.emulator.close());
  const clock = await call(s.url, "GET", "/_sim/clock");
  t.equal(clock.status, 200);
  t.same(clock.body, { now_us: 0, now_ms: 0, iso: "2026-01-01T00:00:00.000Z", clock: "manual", speed: 1, waits_parked: 0 });

  for (const bad of [{ ms: -1 }, { ms: 1.5 }, { ms: 7 * 24 * 3600 * 1000 + 1 }, {}, { ms: "1" }, { ms: 1, extra: true }, [], null, { ms: 1e300 }]) {
    const res = await call(s.url, "POST", "/_sim/clock/advance", { body: bad });
    t.equal(res.status, 400, `advance ${JSON.stringify(bad)} is refused`);
    t.equal(res.headers["content-type"], "application/problem+json");
  }
  t.equal((await call(s.url, "GET", "/_sim/clock")).body.now_us, 0, "refused advances moved nothing");
  t.equal((await call(s.url, "PUT", "/_sim/clock")).status, 405);
  t.equal((await call(s.url, "GET", "/_sim/nope")).status, 404);

  const run = await call(s.url, "POST", "/v2/conformance/run", { body: { input: { ms: 5000 } } });
  t.same(run.body, { id: "job-1", status: "IN_QUEUE" });
  await sleep(50);
  t.equal((await call(s.url, "GET", "/v2/conformance/status/job-1")).body.status, "IN_QUEUE", "wall time does not move a manual clock");
  const adv = await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 4999 } });
  t.same(adv.body, { now_us: 4_999_000, now_ms: 4999, iso: "2026-01-01T00:00:04.999Z", clock: "manual", speed: 1, waits_parked: 0 });
  t.equal((await call(s.url, "GET", "/v2/conformance/status/job-1")).body.status, "IN_QUEUE");
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1 } });
  t.same((await call(s.url, "GET", "/v2/conformance/status/job-1")).body, { id: "job-1", status: "COMPLETED", output: { ms: 5000 } });
  // Retention: the result expires 30 virtual minutes after completion.
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 30 * 60 * 1000 } });
  t.equal((await call(s.url, "GET", "/v2/conformance/status/job-1")).status, 404);
  t.equal((await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 7 * 24 * 3600 * 1000 } })).status, 200, "7 days is the largest step");
});

t.test("runsync: a wait resolved by completion, one by deadline; status-sync the same", async (t) => {
  const s = await startTestServer({ clock: "manual" });
  t.teardown(() => s.emulator.close());
  const order: string[] = [];
  const done = call(s.url, "POST", "/v2/conformance/runsync?wait=60000", { body: { input: { ms: 3000 } } }).then((r) => {
    order.push("runsync");
    return r;
  });
  const late = call(s.url, "POST", "/v2/conformance/runsync?wait=2000", { body: { input: { ms: 100_000 } } });
  while (s.emulator.stats().waits < 2) await sleep(2);
  t.equal((await call(s.url, "GET", "/_sim/clock")).body.waits_parked, 2, "the clock counts the waits parked");
  const adv1 = await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 2000 } });
  t.equal(adv1.status, 200);
  const byDeadline = await late;
  t.same(byDeadline.body, { id: "job-2", status: "IN_QUEUE" }, "the deadline came first: the job is still queued");
  t.equal(s.emulator.stats().waits, 1);
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1000 } }).then(() => order.push("advance"));
  const byCompletion = await done;
  t.same(byCompletion.body, { id: "job-1", status: "COMPLETED", output: { ms: 3000 } });
  t.same(order, ["runsync", "advance"], "due waits are answered before the advance");
  t.equal(s.emulator.stats().waits, 0);

  // status-sync on the still-running job-2: deadline first, then completion.
  const ss1 = call(s.url, "GET", "/v2/conformance/status-sync/job-2?wait=1000");
  while (s.emulator.stats().waits < 1) await sleep(2);
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1000 } });
  t.same((await ss1).body, { id: "job-2", status: "IN_QUEUE" });
  const ss2 = call(s.url, "GET", "/v2/conformance/status-sync/job-2?wait=300000", { headers: json });
  while (s.emulator.stats().waits < 1) await sleep(2);
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 100_000 } });
  t.same((await ss2).body, { id: "job-2", status: "COMPLETED", output: { ms: 100_000 } });
  // Cancel makes a job final inside a request: the wait ends with it.
  const ss3 = call(s.url, "POST", "/v2/conformance/runsync", { body: { input: { ms: 50_000 } } });
  while (s.emulator.stats().waits < 1) await sleep(2);
  await call(s.url, "POST", "/v2/conformance/cancel/job-3", { headers: json });
  t.same((await ss3).body, { id: "job-3", status: "CANCELLED" });
  t.equal((await call(s.url, "GET", "/_sim/clock")).body.waits_parked, 5, "waits_parked only grows: five waits were parked, none is now");
});

t.test("a client that leaves cancels its wait; waits are bounded", async (t) => {
  const s = await startTestServer({ clock: "manual", limits: { maxWaits: 2 } });
  t.teardown(() => s.emulator.close());
  const controller = new AbortController();
  const gone = call(s.url, "POST", "/v2/conformance/runsync", { body: { input: { ms: 5000 } }, signal: controller.signal }).catch((e) => e);
  const kept = call(s.url, "POST", "/v2/conformance/runsync", { body: { input: { ms: 5000 } } });
  while (s.emulator.stats().waits < 2) await sleep(2);
  const third = await call(s.url, "POST", "/v2/conformance/runsync", { body: { input: { ms: 5000 } } });
  t.equal(third.status, 503, "a third wait is refused");
  t.equal(third.headers["retry-after"], "1");
  controller.abort();
  t.type(await gone, Error);
  for (let i = 0; i < 200 && s.emulator.stats().waits !== 1; i++) await sleep(5);
  t.equal(s.emulator.stats().waits, 1, "the abandoned wait is gone");
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 5000 } });
  t.equal((await kept).body.status, "COMPLETED");
});

t.test("reset: a new seed, time back to the start, parked waits answered 503", async (t) => {
  const s = await startTestServer({ clock: "manual", seed: 3 });
  t.teardown(() => s.emulator.close());
  await call(s.url, "POST", "/v2/conformance/run", { body: { input: {} } });
  await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 10_000 } });
  const parked = call(s.url, "POST", "/v2/conformance/runsync", { body: { input: { ms: 60_000 } } });
  while (s.emulator.stats().waits < 1) await sleep(2);
  t.equal((await call(s.url, "POST", "/_sim/reset", { body: { seed: -1 } })).status, 400);
  t.equal((await call(s.url, "POST", "/_sim/reset", { body: { seed: 1, x: 1 } })).status, 400);
  const reset = await call(s.url, "POST", "/_sim/reset", { body: { seed: 7 } });
  t.equal(reset.status, 200);
  t.match(reset.body, { now_us: 0, seed: 7, clock: "manual" });
  t.equal(s.backend.seed, 7);
  const answered = await parked;
  t.equal(answered.status, 503);
  t.equal(answered.body.detail, "the simulation was reset");
  t.equal((await call(s.url, "GET", "/v2/conformance/status/job-1")).status, 404, "the old jobs are gone");
  // Without a seed, reset keeps the current one; an empty JSON body is {}.
  const again = await call(s.url, "POST", "/_sim/reset", { headers: json });
  t.match(again.body, { seed: 7 });
});

t.test("--no-control: the control paths answer 404", async (t) => {
  const s = await startTestServer({ clock: "manual", control: false });
  t.teardown(() => s.emulator.close());
  for (const [method, path] of [
    ["GET", "/_sim/clock"],
    ["POST", "/_sim/clock/advance"],
    ["POST", "/_sim/reset"],
  ]) {
    const res = await call(s.url, method, path, { body: { ms: 1 } });
    t.equal(res.status, 404, `${method} ${path}`);
    t.equal(res.headers["content-type"], "application/problem+json");
  }
  t.equal((await call(s.url, "GET", "/v2/echo")).status, 200);
});

t.test("real clock: runsync returns as soon as the job finishes, with no polling", async (t) => {
  // speed 100: a job of 3 virtual seconds takes 30 ms of wall time.
  const s = await startTestServer({ clock: "real", speed: 100 });
  t.teardown(() => s.emulator.close());
  const started = performance.now();
  const res = await call(s.url, "POST", "/v2/conformance/runsync?wait=60000", { body: { input: { ms: 3000 } } });
  const wall = performance.now() - started;
  t.equal(res.body.status, "COMPLETED");
  // COMPLETED, not IN_PROGRESS: answered when the job ended, before the wait ran out (600 wall ms).
  t.ok(wall >= 25, `answered after ${wall.toFixed(0)} ms of wall time, not before the job could end`);
  // A deadline in real time: wait 1000 virtual ms = 10 wall ms, job much longer.
  const late = await call(s.url, "POST", "/v2/conformance/runsync?wait=1000", { body: { input: { ms: 600_000 } } });
  t.same(late.body.status, "IN_QUEUE", "answered at the deadline, the job still queued");
  // Virtual time keeps moving between requests.
  const a = (await call(s.url, "GET", "/_sim/clock")).body.now_us;
  await sleep(20);
  const b = (await call(s.url, "GET", "/_sim/clock")).body.now_us;
  t.ok(b - a >= 1_500_000, `20 ms of wall time moved the clock by ${(b - a) / 1000} virtual ms`);
  t.match((await call(s.url, "GET", "/_sim/clock")).body, { clock: "real", speed: 100 });
  // advance in real mode jumps ahead.
  const before = (await call(s.url, "GET", "/_sim/clock")).body.now_us;
  const after = (await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 3_600_000 } })).body.now_us;
  t.ok(after - before >= 3_600_000_000);
});

t.test("real clock: the timer is armed only while the model has something pending", async (t) => {
  const s = await startTestServer({ clock: "real", speed: 1000 });
  t.teardown(() => s.emulator.close());
  t.equal(s.emulator.stats().timerArmed, false, "idle: no timer");
  await call(s.url, "POST", "/v2/conformance/run", { body: { input: { ms: 1000 } } });
  t.equal(s.emulator.stats().timerArmed, true, "a job pending: timer armed");
  // The job finishes (1 ms wall) and its result expires (30 virtual minutes = 1.8 s wall).
  for (let i = 0; i < 400 && s.emulator.stats().timerArmed; i++) await sleep(10);
  t.equal(s.emulator.stats().timerArmed, false, "everything done: no timer");
  t.equal(s.backend.nextEventTime(), undefined);
});

t.test("a manual-clock session replayed on a fresh server gives byte-identical responses", async (t) => {
  const session = async (): Promise<string[]> => {
    const s = await startTestServer({ clock: "manual", seed: 5 });
    const out: string[] = [];
    const record = (r: Awaited<ReturnType<typeof call>>): void => {
      const { date: _date, ...headers } = r.headers;
      out.push(`${r.status} ${JSON.stringify(headers)} ${r.text}`);
    };
    try {
      record(await call(s.url, "POST", "/v2/conformance/run", { body: { input: { ms: 1500 } } }));
      const parked = call(s.url, "POST", "/v2/conformance/runsync?wait=10000", { body: { input: { ms: 700 } } });
      while (s.emulator.stats().waits < 1) await sleep(2);
      record(await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1000 } }));
      record(await parked);
      record(await call(s.url, "GET", "/v2/conformance/status/job-1"));
      record(await call(s.url, "POST", "/_sim/clock/advance", { body: { ms: 1000 } }));
      record(await call(s.url, "GET", "/v2/conformance/status/job-1"));
      record(await call(s.url, "POST", "/v2/echo", { raw: "{bad", headers: json }));
      record(await call(s.url, "DELETE", "/v2/echo"));
      record(await call(s.url, "GET", "/_sim/clock"));
    } finally {
      await s.emulator.close();
    }
    return out;
  };
  const first = await session();
  const second = await session();
  t.equal(first.length, 9);
  t.strictSame(second, first);
});
