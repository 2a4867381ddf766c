/**
 * The job checks against broken emulators: each case breaks one behaviour in front of the real
 * backend, runs the rule that forbids it, and expects that rule to fail with a curl script that,
 * replayed with bash against the same broken server, shows the failure again.
 */
import t from "tap";
import type { ApiResponse } from "../../../sim/api/types.ts";
import { jobOp, lastAnswer, mapAnswer, replay, runJobs, startTarget, type Breakage } from "../../test-support/jobs/test-target.ts";

type Body = Record<string, unknown>;
const body = (r: ApiResponse): Body => (r.body ?? {}) as Body;
const answer = (status: number, value: unknown): ApiResponse => ({ status, headers: { "content-type": "application/json" }, body: value });

/** Blocks of the replay's output, one per request: its `### n/m METHOD URL` line, headers and body. */
function blocks(stdout: string): string[] {
  return stdout.split(/^### /m).slice(1);
}

/** Rewrites the `jobs` of health's answers, from the `from`-th one on (0: every one). */
function editHealthJobs(edit: (jobs: Record<string, number>) => Body, from = 0): Breakage {
  let reads = 0;
  return (req, next) => {
    const out = next(req);
    if (jobOp(req) !== "health" || reads++ < from) return out;
    return mapAnswer(out, (r) => ({ ...r, body: { ...body(r), jobs: edit(body(r)["jobs"] as Record<string, number>) } }));
  };
}

interface Case {
  readonly name: string;
  readonly rule: string;
  readonly breakage: Breakage;
  /** The profile the rule is judged under (default lenient). */
  readonly profile?: "lenient" | "strict";
  /** What the replay's output must show. */
  readonly shows: (stdout: string) => boolean;
}

const cases: readonly Case[] = [
  {
    name: "run answers IN_PROGRESS",
    rule: "jobs.run.in-queue",
    breakage: (req, next) => {
      const out = next(req);
      return jobOp(req) === "run" ? mapAnswer(out, (r) => (r.status === 200 ? { ...r, body: { ...body(r), status: "IN_PROGRESS" } } : r)) : out;
    },
    shows: (out) => /"status":"IN_PROGRESS"/.test(lastAnswer(out)),
  },
  {
    name: "cancel answers CANCELLED but leaves the job running",
    rule: "jobs.cancel.running",
    breakage: (req, next) => (jobOp(req) === "cancel" ? { kind: "response", response: answer(200, { id: req.path.split("/").pop(), status: "CANCELLED" }) } : next(req)),
    shows: (out) => / 200 /.test(lastAnswer(out).split("\n")[1] ?? "") && !/"status":"CANCELLED"/.test(lastAnswer(out)),
  },
  {
    name: "health leaves out jobs.retried",
    rule: "jobs.health.shape",
    breakage: editHealthJobs(({ retried: _retried, ...jobs }) => jobs),
    shows: (out) => /"inQueue"/.test(lastAnswer(out)) && !/"retried"/.test(lastAnswer(out)),
  },
  {
    name: "health forgets a completed job after its first read (a counter that goes backwards)",
    rule: "jobs.health.counters",
    breakage: editHealthJobs((jobs) => ({ ...jobs, completed: Math.max(0, jobs["completed"]! - 1) }), 1),
    // The replay meets the same target, which still holds the first run's jobs: it shows the read that failed, after a job read COMPLETED.
    shows: (out) => /"status":"COMPLETED"/.test(out) && /\/health\b/.test(lastAnswer(out).split("\n")[0] ?? "") && /"completed":\d+/.test(lastAnswer(out)),
  },
  {
    name: "health counts every completed job as queued too (a job counted twice)",
    rule: "jobs.health.counters",
    profile: "strict",
    breakage: editHealthJobs((jobs) => ({ ...jobs, inQueue: jobs["inQueue"]! + jobs["completed"]! })),
    shows: (out) => /\/health\b/.test(lastAnswer(out).split("\n")[0] ?? "") && /"inQueue":[1-9]/.test(lastAnswer(out)),
  },
  {
    name: "purge-queue counts three jobs more than it removed",
    rule: "jobs.purge.count",
    breakage: (req, next) => {
      const out = next(req);
      return jobOp(req) === "purge-queue" ? mapAnswer(out, (r) => ({ ...r, body: { ...body(r), removed: (body(r)["removed"] as number) + 3 } })) : out;
    },
    shows: (out) => {
      const all = blocks(out);
      const removed = Number(/"removed":(\d+)/.exec(all[all.length - 1] ?? "")?.[1]);
      const health = [...all].reverse().find((b) => b.includes("/health"));
      const inQueue = Number(/"inQueue":(\d+)/.exec(health ?? "")?.[1]);
      return removed > inQueue;
    },
  },
  {
    name: "retry requeues a job in any state",
    rule: "jobs.retry.only-failed",
    breakage: (req, next) => {
      if (jobOp(req) !== "retry") return next(req);
      const read = next({ ...req, method: "GET", path: req.path.replace("/retry/", "/status/") });
      if (read.kind !== "response" || read.response.status !== 200) return next(req);
      return { kind: "response", response: answer(200, { id: req.path.split("/").pop(), status: "IN_QUEUE" }) };
    },
    shows: (out) => /\/retry\//.test(lastAnswer(out).split("\n")[0] ?? "") && /"status":"IN_QUEUE"/.test(lastAnswer(out)),
  },
  {
    name: "stream joins the chunks of an output over 1 MB into one",
    rule: "jobs.stream.chunk-size",
    breakage: (req, next) => {
      const out = next(req);
      if (jobOp(req) !== "stream") return out;
      return mapAnswer(out, (r) => {
        const chunks = body(r)["stream"] as { output: unknown }[] | undefined;
        if (!Array.isArray(chunks) || chunks.length < 2) return r;
        return { ...r, body: { ...body(r), stream: [{ output: chunks.map((c) => c.output).join("") }] } };
      });
    },
    shows: (out) => /"output":"[a-z]{1048577,}"/.test(lastAnswer(out)),
  },
  {
    name: "status ignores ttl",
    rule: "jobs.status.ttl",
    breakage: (req, next) => next({ ...req, query: Object.fromEntries(Object.entries(req.query).filter(([k]) => k !== "ttl")) }),
    shows: (out) => / 200 /.test(lastAnswer(out).split("\n")[1] ?? "") && /"status":"COMPLETED"/.test(lastAnswer(out)),
  },
];

for (const c of cases) {
  t.test(`${c.name}: ${c.rule} fails, and its curl script shows it`, async (t) => {
    const target = await startTarget(c.breakage);
    t.teardown(() => target.stop());
    const { report, exitCode } = await runJobs(target, { only: [c.rule], ...(c.profile ? { profile: c.profile } : {}) });
    const result = report.rules.find((r) => r.id === c.rule);
    t.equal(result?.status, "fail", `${c.rule} fails`);
    t.equal(exitCode, 1);
    const failure = result?.failures[0];
    t.ok(failure, "with a failure");
    if (!failure) return;
    t.match(failure.reproduction.command, /--seed 1/);
    const curl = failure.reproduction.curl;
    t.notMatch(curl, new RegExp(target.keys.api as string), "the key stays out of the script");
    const { stdout, code } = await replay(curl, target.keys);
    t.equal(code, 0, "the script runs to its end");
    t.ok(c.shows(stdout), "the replay shows the failure", { lastAnswer: lastAnswer(stdout).slice(0, 2000) });
  });
}
