/** k6 threshold expressions and scenario validation: what a user's file can get wrong. */
import t from "tap";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { resultFromK6Summary } from "./k6/run-k6.ts";
import { loadScenarioFile, ScenarioFileError } from "./scenario-file.ts";
import { runSmall } from "./scenarios/run-small.ts";
import { judgeThresholds, parseThreshold, ThresholdSyntaxError } from "./thresholds.ts";

t.test("thresholds read like k6's and judge the run's figures", async (t) => {
  t.same(parseThreshold("p(99.9) < 250"), { stat: "p(99.9)", op: "<", value: 250 });
  t.same(parseThreshold("rate>=0.99"), { stat: "rate", op: ">=", value: 0.99 });
  t.throws(() => parseThreshold("p99<5"), ThresholdSyntaxError);
  const figures: Record<string, Record<string, number>> = { http_req_duration: { "p(99)": 12 }, checks: { rate: 1 } };
  const results = judgeThresholds({ http_req_duration: ["p(99)<10", "p(99)<=12"], checks: ["rate==1"], http_reqs: ["count>0"] }, (m, s) => figures[m]?.[s]);
  t.same(
    results.map((r) => [r.expression, r.ok]),
    [
      ["p(99)<10", false],
      ["p(99)<=12", true],
      ["rate==1", true],
      ["count>0", false],
    ],
    "a figure the run does not have fails its threshold",
  );
});

t.test("scenario files: JSON or a module, validated with the file and field named", async (t) => {
  const dir = t.testdir();
  const mjs = join(dir, "mine.mjs");
  await writeFile(mjs, `export default [${JSON.stringify({ ...runSmall, name: "mine-a" })}, ${JSON.stringify({ ...runSmall, name: "mine-b" })}];\n`);
  t.same((await loadScenarioFile(mjs)).map((s) => s.name), ["mine-a", "mine-b"]);
  const bad = join(dir, "bad.json");
  await writeFile(bad, JSON.stringify({ ...runSmall, checks: [{ name: "x", kind: "json-field" }], extra: 1 }));
  await t.rejects(loadScenarioFile(bad), { name: "ScenarioFileError", message: /bad\.json: not a valid scenario:[\s\S]*must NOT have additional properties "extra"/ });
  const ids = join(dir, "ids.json");
  await writeFile(ids, JSON.stringify({ ...runSmall, requests: [{ name: "s", method: "GET", host: "serverless", path: "/v2/{endpoint}/status/{ids:nope}" }] }));
  await t.rejects(loadScenarioFile(ids), /\/requests\/0\/path uses \{ids:nope\} but no setup step is named nope/);
  const thr = join(dir, "thr.json");
  await writeFile(thr, JSON.stringify({ ...runSmall, thresholds: { checks: ["99%"] } }));
  await t.rejects(loadScenarioFile(thr), /\/thresholds\/checks\/0: threshold "99%" is not understood/);
  await t.rejects(loadScenarioFile(join(dir, "missing.json")), ScenarioFileError);
  await t.rejects(loadScenarioFile(join(dir, "x.yaml")), /expected a \.json file/);
});

t.test("a k6 summary reads back as a scenario result", async (t) => {
  const r = resultFromK6Summary(
    runSmall,
    {
      metrics: {
        http_req_duration: { values: { med: 1.25, "p(90)": 2, "p(99)": 4.5, "p(99.9)": 9, max: 12, min: 0.3, avg: 1.5 }, thresholds: { "p(99)<500": { ok: true } } },
        http_reqs: { values: { count: 600, rate: 100 } },
        checks: { values: { passes: 1199, fails: 1 }, thresholds: { "rate>0.99": { ok: true } } },
        rate_limited: { values: { count: 3 } },
        dropped_iterations: { values: { count: 2 } },
      },
      state: { testRunDurationMs: 6000 },
    },
    100,
  );
  t.equal(r.model, "k6");
  t.equal(r.latency.p99Us, 4500);
  t.equal(r.rateLimited, 3);
  t.equal(r.unsent, 2);
  t.ok(r.passed);
});
