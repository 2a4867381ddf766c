/**
 * `cpsim load --sweep-connections` measures every count in interleaved rounds on one embedded
 * emulator: a warm-up that is discarded, then each round runs every count once (the order rotated),
 * and the USL is fitted to each count's median, with the rounds' spread in usl.json.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import t from "tap";
import { run } from "./cli.ts";
import { startChildEmulator } from "./emulator-child.ts";

t.setTimeout(300_000);

t.test("a sweep of 3 counts in 2 rounds: 7 runs on one emulator, each count's median of 2 rounds fitted", async (t) => {
  const dir = t.testdir();
  let started = 0;
  let stopped = 0;
  const out: string[] = [];
  const err: string[] = [];
  const code = await run(
    ["--scenario", "status-poll", "--duration", "0.6", "--sweep-connections", "4,1,2", "--sweep-rounds", "2", "--seed", "3", "--quiet", "--json", "--report-dir", dir],
    { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s) },
    {
      startEmulator: async (seed) => {
        started++;
        const child = await startChildEmulator(seed);
        return { ...child, stop: async () => (stopped++, child.stop()) };
      },
    },
  );
  t.equal(code, 0, err.join("").slice(-2000));
  t.equal(started, 1, "one embedded emulator for every run");
  t.equal(stopped, 1, "and it is stopped at the end");
  for (const n of [1, 2, 4]) for (const r of [1, 2]) t.ok(existsSync(join(dir, `c${n}`, `round-${r}`, "report.json")), `c${n}/round-${r}`);
  t.ok(existsSync(join(dir, "warmup", "report.json")), "the warm-up's report, kept apart");
  const usl = JSON.parse(readFileSync(join(dir, "usl.json"), "utf8"));
  t.same(JSON.parse(out.join("")), usl, "--json prints usl.json");
  t.equal(usl.rounds, 2);
  t.equal(usl.runSeconds, 0.3, "--duration is each count's total, split over the rounds");
  t.match(usl.method, /interleaved/);
  const fit = usl.usl[0].fit;
  t.same(fit.points.map((p: { concurrency: number; n: number }) => [p.concurrency, p.n]), [[1, 2], [2, 2], [4, 2]]);
  for (const p of fit.points) {
    const rounds = [1, 2].map((r) => JSON.parse(readFileSync(join(dir, `c${p.concurrency}`, `round-${r}`, "report.json"), "utf8")).scenarios[0].rps as number);
    t.ok(Math.abs(p.throughput - (rounds[0] + rounds[1]) / 2) < 0.01 * p.throughput + 0.1, `c${p.concurrency}: the median of its rounds ${rounds.join(", ")}`);
    t.equal(p.min, Math.min(...rounds));
    t.equal(p.max, Math.max(...rounds));
  }
});
