/**
 * `cpsim load` against targets unlike the embedded emulator (load/foreign-target.ts): another
 * GPU catalog, a small rate limit, a runsync slower than the scenario, a server that answers 404
 * everywhere. The run adapts (pod bodies from the target's catalog, skips with reasons), fits a
 * small quota with --respect-rate-limit and reports 429s as 429s without it, stops a setup the
 * quota blocks with exit 2 naming the quota, and says why a scenario has no figures.
 */
import t from "tap";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { LoadReport } from "../reports/index.ts";
import { main } from "../sim/cli/main.ts";
import { startForeignTarget } from "./foreign-target.ts";

async function cli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["load", ...args], { stdout: (s) => void (out += s), stderr: (s) => void (err += s) });
  return { code, out, err };
}

const report = (dir: string): LoadReport => JSON.parse(readFileSync(join(dir, "report.json"), "utf8")) as LoadReport;

t.test("another catalog: create-pod builds its body from the target's GPU types, and terminates the pods", async (t) => {
  const target = await startForeignTarget({ gpus: [{ id: "acme-h200", displayName: "ACME H200 141GB", counts: [2, 4] }] });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario", "create-pod", "--max-requests", "6", "--duration", "2", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 0, r.out + r.err);
  const bodies = target.stats.podBodies as { gpu?: { id: string; count: number } }[];
  t.ok(bodies.length > 0 && bodies.every((b) => b.gpu?.id === "acme-h200" && b.gpu.count === 2), "every body names the target's GPU type and a count it offers");
  t.equal(target.stats.statuses[422] ?? 0, 0, "no 422");
  t.equal(target.stats.deleted, bodies.length, "every pod made was terminated");
  t.match(r.out, /pod body from the target's catalog: 2 × acme-h200/);
  t.match(r.out, /target: catalog: 1 GPU types from GET \/v2\/catalog\/gpus/);
});

t.test("--target-profile: the target's own paths win (pods terminated through its action route)", async (t) => {
  const target = await startForeignTarget({ terminateByAction: true });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const profile = join(dir, "profile.json");
  await writeFile(profile, JSON.stringify({ podDeletePath: null, podActionPath: "/v2/pods/{podId}/{action}", podListPath: "/v2/pods", gpuCatalogPath: "/v2/catalog/gpus" }));
  const r = await cli(["--target", target.url, "--api-key", "k", "--target-profile", profile, "--scenario", "create-pod", "--max-requests", "4", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 0, r.out + r.err);
  t.ok(target.stats.podBodies.length > 0);
  t.equal(target.stats.deleted, target.stats.podBodies.length, "every pod terminated by the action the profile names");
  t.match(r.out, /target: podDeletePath null \(profile: stated in the --target-profile file\)/);
  t.match(r.out, /reproduce|passed/);
});

t.test("a catalog with CPU flavors only: create-pod asks for the smallest CPU pod of a flavor it lists", async (t) => {
  const target = await startForeignTarget({ gpus: [], cpus: [{ id: "acme-cpu-general", vcpuCounts: [4, 8] }] });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario", "create-pod", "--max-requests", "3", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 0, r.out + r.err);
  const bodies = target.stats.podBodies as { cpu?: { id: string; vcpuCount: number }; gpu?: unknown }[];
  t.ok(bodies.length > 0 && bodies.every((b) => b.cpu?.id === "acme-cpu-general" && b.cpu.vcpuCount === 4 && b.gpu === undefined));
  t.match(r.out, /pod body from the target's catalog: CPU acme-cpu-general × 4 vCPU/);
});

t.test("a catalog with nothing to create: create-pod is skipped with the reason, never run to fail", async (t) => {
  const target = await startForeignTarget({ gpus: [{ id: "acme-h200", displayName: "ACME H200", counts: [] }], cpus: [] });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario", "create-pod,graphql-gpu-types", "--duration", "0.5", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(target.stats.podBodies.length, 0, "no pod was asked for");
  t.match(r.out, /create-pod: skipped: .*(no GPU type|offers no)/);
  t.equal(report(dir).scenarios.find((s) => s.name === "create-pod")?.skipped !== undefined, true);
  t.equal(r.code, 0, "the scenario that could run passed; a skip is not a failure");
});

const pollScenario = {
  name: "poll-quota",
  description: "GET status of jobs made in setup",
  // More jobs than one window lets through: setup meets the quota.
  setup: [{ name: "jobs", kind: "submit-jobs", count: 30, input: { op: "echo" } }],
  requests: [{ name: "status", method: "GET", host: "serverless", path: "/v2/{endpoint}/status/{ids:jobs}" }],
  checks: [{ name: "status is 200", kind: "status", in: [200] }],
  thresholds: { checks: ["rate>0.99"] },
  defaults: { durationS: 1.5, connections: 2, maxRequests: 10_000 },
};

t.test("a small quota: --respect-rate-limit fits every step into it; without, 429s are reported as 429s", async (t) => {
  const dir = t.testdir();
  const file = join(dir, "poll.json");
  await writeFile(file, JSON.stringify(pollScenario));

  const paced = await startForeignTarget({ rateLimit: { quota: 20, windowS: 1 } });
  t.teardown(() => paced.stop());
  const out = join(dir, "metrics.jsonl");
  const csv = join(dir, "metrics.csv");
  const a = await cli(["--target", paced.url, "--api-key", "k", "--scenario-file", file, "--respect-rate-limit", "--seed", "1", "--quiet", "--report-dir", join(dir, "a"), "--out", `json=${out}`, "--out", `csv=${csv}`]);
  t.equal(a.code, 0, a.out + a.err);
  t.equal(paced.stats.statuses[429] ?? 0, 0, "the target never answered 429: setup, quota reads and the run fit the quota");
  const s = report(join(dir, "a")).scenarios[0];
  t.ok(s.requests > 0 && s.rateLimited === 0);
  t.match(s.notes.join("\n"), /paced to [\d.]+ req\/s by --respect-rate-limit \("window" 20 per 1 s/);
  // --out: one JSON object a line, each second's counts and percentiles, then the scenario's summary.
  const lines = readFileSync(out, "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const seconds = lines.filter((l) => l.type === "second");
  t.ok(seconds.length >= 1, "per-second rows");
  t.ok(seconds.every((l) => l.scenario === "poll-quota" && typeof l.p99_ms === "number" && typeof l.s2xx === "number"));
  t.equal(seconds.reduce((n, l) => n + (l.requests as number), 0), s.requests, "the seconds add up to the run");
  t.equal(lines.at(-1)?.type, "scenario");
  const rows = readFileSync(csv, "utf8").trim().split("\n");
  t.match(rows[0], /^scenario,t,requests,s2xx,s3xx,s4xx,s5xx,s429,failed,errors,p50_ms/);
  t.equal(rows.length, seconds.length + 1, "a CSV row a second");

  const spent = await startForeignTarget({ rateLimit: { quota: 20, windowS: 1 } });
  t.teardown(() => spent.stop());
  const b = await cli(["--target", spent.url, "--api-key", "k", "--scenario-file", file, "--seed", "1", "--quiet", "--report-dir", join(dir, "b")]);
  const r = report(join(dir, "b")).scenarios[0];
  t.ok(r.requests > 0, "setup met 429s and waited them out as Retry-After said; then the scenario ran");
  t.ok((spent.stats.statuses[429] ?? 0) > 0, "the unpaced run met the quota");
  t.ok(r.rateLimited > 0 && r.statuses["429"] === r.rateLimited, "429s reported as 429s");
  t.equal(r.failed, 0, "and not as errors");
  t.match(b.out, /poll-quota\s.*\s\d+\s+0\s+0\s+[1-9]\d*\s+0\s/, "the table's 429 column");
  t.match(r.notes.join("\n"), /answer\(s\) were 429 .*"window" 20 per 1 s.*--respect-rate-limit/);
  t.notMatch(b.out + b.err, /conformance handler/);
});

t.test("a setup the quota blocks for longer than a wait may last: exit 2 naming the quota and how to pace", async (t) => {
  const target = await startForeignTarget({ rateLimit: { quota: 5, windowS: 3600 } });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const file = join(dir, "poll.json");
  await writeFile(file, JSON.stringify(pollScenario));
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario-file", file, "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 2);
  t.match(r.err, /setup of poll-quota .*stopped by the target's rate limit/);
  t.match(r.err, /"window" 5 per 3600 s/);
  t.match(r.err, /--respect-rate-limit/);
  t.match(r.err, /--rate/);
  t.notMatch(r.err, /conformance handler/, "never the wrong diagnosis");
});

t.test("the rate-limit scenario is skipped, with the figures, when the quota is more than it may send", async (t) => {
  const target = await startForeignTarget({ rateLimit: { quota: 2000, windowS: 60 } });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario", "rate-limit", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.match(r.out, /rate-limit: skipped: the key's quota is larger than what rate-limit may send within its bounds: 199\d request\(s\) before a 429 \("window" 2000 per 60 s.*\) against at most 161 \(40 req\/s for 4 s, --max-requests 400\)/);
  t.equal(r.code, 1, "a run that measured nothing is not green");
  t.match(r.out, /every scenario was skipped/);
});

t.test("a runsync slower than the scenario: no answer, and the table says why and what to change", async (t) => {
  const target = await startForeignTarget({ runsyncDelayMs: 2500 });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario", "runsync-near-limit", "--duration", "0.5", "--max-requests", "2", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 1);
  const s = report(dir).scenarios[0];
  t.equal(s.requests, 0);
  t.match(r.out, /runsync-near-limit: no answer within the scenario's duration \(0\.5 s\).*runsync outlasted it.*raise --duration/);
});

t.test("404 everywhere: every answer counted as an error, the route named missing; job scenarios skipped", async (t) => {
  const target = await startForeignTarget({ notFound: true });
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const r = await cli(["--target", target.url, "--api-key", "k", "--scenario", "graphql-gpu-types,run-small", "--duration", "0.5", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 1);
  const g = report(dir).scenarios.find((s) => s.name === "graphql-gpu-types")!;
  t.ok(g.requests > 0);
  t.equal(g.failed, g.requests, "errors counts every unexpected status");
  t.match(r.out, new RegExp(`graphql-gpu-types\\s.*\\s0\\s+${g.requests}\\s+0\\s+0\\s+${g.requests}\\s`), "4xx and errors columns");
  t.match(r.out, /graphql-gpu-types: every answer was 404: the target has no route POST \/graphql \(route missing\)/);
  t.match(r.out, /run-small: skipped: GET .*\/v2\/conformance\/health: 404: the target has no job endpoint "conformance"; give --endpoint/);
});

t.test("connection refused: the scenario says so and names the flag", async (t) => {
  const target = await startForeignTarget({});
  const url = target.url;
  const dir = t.testdir();
  const file = join(dir, "s.json");
  // The job endpoint lives elsewhere (--serverless-url) and nothing listens there.
  await target.stop();
  const other = await startForeignTarget({});
  t.teardown(() => other.stop());
  await writeFile(file, JSON.stringify({ ...pollScenario, setup: undefined, name: "refused", requests: [{ name: "run", method: "POST", host: "serverless", path: "/v2/x/run", body: { json: {} } }] }));
  const r = await cli(["--target", other.url, "--serverless-url", url, "--api-key", "k", "--scenario-file", file, "--duration", "0.5", "--seed", "1", "--quiet", "--report-dir", dir]);
  t.equal(r.code, 1);
  t.match(r.out, /refused: no answer: connection refused .*check --target and --serverless-url/);
});
