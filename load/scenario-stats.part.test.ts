/** ScenarioStats: microsecond percentiles, errors by kind, checks counted, and memory that does not grow with the run. */
import t from "tap";
import { errorKind, MAX_SERIES_ROWS, ScenarioStats } from "./scenario-stats.ts";
import type { Scenario } from "./scenario.ts";

const scenario: Scenario = {
  name: "s",
  description: "s",
  requests: [{ name: "get", method: "GET", host: "base", path: "/" }],
  expectedStatuses: { min: 200, max: 299 },
  checks: [
    { name: "status is 200", kind: "status", in: [200] },
    { name: "has id", kind: "json-field", path: "id", when: { status: [200] } },
  ],
  thresholds: {},
  defaults: { durationS: 1, connections: 1, maxRequests: 1 },
};

t.test("sub-millisecond percentiles, statuses, 429 apart, errors by kind, checks", async (t) => {
  const s = new ScenarioStats(scenario);
  for (let i = 0; i < 990; i++) s.response(150 + (i % 10), 200, 100, { status: 200, body: '{"id":"a"}', headers: {} });
  for (let i = 0; i < 10; i++) s.response(900, 200, 100, { status: 200, body: "{}", headers: {} });
  s.response(50, 429, 10, { status: 429, body: "", headers: { ratelimit: '"minute";r=0;t=30' } });
  s.response(60, 500, 10, { status: 500, body: "", headers: {} });
  s.error(errorKind(Object.assign(new Error("x"), { code: "ECONNRESET" })));
  s.error(errorKind(Object.assign(new Error("request timed out"), {})));
  const l = s.latency();
  t.equal(l.p50Us, 155);
  t.ok(l.p99Us >= 159 && l.p99Us <= 160, `p99 ${l.p99Us} µs`);
  t.equal(l.maxUs, 900);
  t.same(s.statuses, { "200": 1000, "429": 1, "500": 1 });
  t.same(s.errors, { reset: 1, timeout: 1, refused: 0, other: 0 });
  t.equal(s.failed, 3, "the 500 and the two errors; not the 429");
  t.same(s.rateLimitFindings().limited, 1);
  t.equal(s.rateLimitFindings().first429?.window, "minute");
  t.same(s.checkCounts(), [
    { name: "status is 200", passes: 1000, fails: 4 },
    { name: "has id", passes: 990, fails: 10 },
  ]);
  s.destroy();
});

t.test("memory stays bounded: the series is capped, the histogram does not grow", async (t) => {
  const s = new ScenarioStats(scenario);
  const before = s.histogram.estimatedFootprintInBytes;
  for (let i = 0; i < 200_000; i++) s.response(1 + ((i * 7919) % 3_000_000), 200, 1);
  for (let i = 0; i < MAX_SERIES_ROWS + 500; i++) s.tick();
  t.equal(s.series.length, MAX_SERIES_ROWS);
  t.equal(s.histogram.estimatedFootprintInBytes, before);
  t.equal(s.latency().count, 200_000);
  s.destroy();
});
