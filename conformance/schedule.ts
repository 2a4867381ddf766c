/**
 * Which rules run beside which. Against a target whose time is real, the areas that share no
 * resource run concurrently, each in its own lane: the pod lifecycle model, the other REST pod
 * rules (create, update, errors, catalog, versioning), GraphQL, the job endpoints, and auth.
 * GraphQL's stop and resume rules, a pod's whole start each, have two lanes of their own.
 * Each lane makes its own pods or jobs and judges only those. Two things are shared and handled
 * here rather than hoped for:
 *
 * - Rate-limit counting: the ratelimit rules read `RateLimit` remaining values and spend windows
 *   on purpose, so any other request on the same key would shift their arithmetic. Those that
 *   count on the full-access key (remaining decreasing, per-user windows, the header rules) run
 *   alone, before the other lanes start, while every window is fresh. Those that exhaust the
 *   other account's window (429 when spent, Retry-After, the 429's detail) use only the other
 *   account's key, which only the auth rules share: they run in the auth lane, after the auth
 *   rules, so their wait for the window's reset (up to a minute) passes beside the longer lanes.
 * - Virtual time: on a target with the control API (the embedded emulator, `cpsim serve --clock
 *   manual`) the clock is one shared resource: a lane advancing it by minutes would move another
 *   lane's jobs and pods under its feet. There the lanes take turns (one lane, registration
 *   order); each run is cheap anyway, since nothing waits in real time.
 * - The job rules side by side (issue 32): against a real-time target most of a job rule's time is
 *   waiting (a handler's sleep, a watch after a cancel), so the jobs lane runs JOB_LANE_WIDTH of
 *   its rules at once, each following only the job ids it submitted; the slowest known rules are
 *   started first, so that the lane ends with short ones. The purge rules remove every queued job
 *   of the endpoint, the other rules' too: they run in the lane's exclusive window, after its other
 *   rules, one at a time (other areas' lanes go on beside them), and so does jobs.empty-body, which
 *   sends purge-queue with an empty body.
 * - The job endpoint's counts: jobs.health.exact judges health's counts exactly in a window where
 *   only its own jobs use the endpoint, and other lanes submit jobs there too (the auth lane's
 *   isolation and read-only checks). Against a real-time target it runs after every concurrent
 *   lane is done, alone (each check cancels what it left running, so the endpoint is quiet then).
 *
 * The number of requests in flight over all lanes is bounded by the client (--concurrency).
 */
import type { CheckRegistry } from "./check-registry.ts";

export interface Unit {
  /** One rule, or the members of a group, judged by one run. */
  readonly ids: readonly string[];
}

export interface Lane {
  readonly name: string;
  readonly units: Unit[];
  /** How many of `units` run at once (default 1: one after the other). */
  readonly width?: number;
  /** Why that many, when it was chosen from what the target reported. */
  readonly widthWhy?: string;
  /** Units run after `units`, one at a time with nothing else of the lane beside them, and why. */
  readonly exclusive?: { readonly units: Unit[]; readonly why: string };
}

export interface Plan {
  /** Lanes run alone, one after the other, before the concurrent ones (rate limits, against a real-time target). */
  readonly before: readonly Lane[];
  /** Lanes run at the same time. */
  readonly concurrent: readonly Lane[];
  /** Lanes run one after the other once the concurrent ones are done (rate limits, where the lanes take turns). */
  readonly after: readonly Lane[];
}

const LANE_OF_AREA: Readonly<Record<string, string>> = {
  pods: "pods",
  errors: "pods",
  catalog: "pods",
  versioning: "pods",
  graphql: "graphql",
  jobs: "jobs",
  auth: "auth",
  ratelimit: "ratelimit",
};

/**
 * GraphQL rules whose runs wait for a deployed pod to run, then stop (and resume) it: a minute or
 * more each against a real-time target. Two lanes of their own, so they pass beside the rest of
 * GraphQL rather than after it; each holds one pod at a time.
 */
const LANE_OF_RULE: Readonly<Record<string, string>> = {
  "graphql.pod-stop.fields": "graphql-stop",
  "graphql.pod-stop.exited": "graphql-stop",
  "graphql.pod-resume.fields": "graphql-resume",
  "graphql.pod-resume.running": "graphql-resume",
};

/** Groups (one shared run) that run in an area's lane rather than one of their own: the cancel rules' shared observation is a job rule like the others. */
const LANE_OF_GROUP: Readonly<Record<string, string>> = {
  "jobs.cancel": "jobs",
};

/** Rules that need the job endpoint to themselves: against a real-time target, alone after the concurrent lanes. */
const ENDPOINT_ALONE = new Set(["jobs.health.exact"]);

/**
 * How many job rules run at once against a real-time target, when the endpoint's workers are not
 * known (and the floor): each holds at most a few of the endpoint's workers at a time, and only
 * for as long as its set-up needs them (a rule that holds workers to keep a job queued cancels the
 * holders once it has seen what it needed), so four leave a two-worker endpoint free often enough
 * for the others' jobs to start within seconds (and a one-worker one: 39 s for the suite, issue 32).
 */
export const JOB_LANE_WIDTH = 4;
/** The most job rules at once, however many workers: the requests in flight and the suite's own machine bound it too. */
export const JOB_LANE_MAX_WIDTH = 8;
/** Job rules per worker the endpoint reports: a rule's set-up holds one or two workers at a time. */
const RULES_PER_WORKER = 2;

/** The jobs lane's width and why, in words for the schedule. */
export interface JobWidth {
  readonly width: number;
  readonly why: string;
}

/**
 * The jobs lane's width from the workers the endpoint's health reports (`workers.idle` +
 * `workers.running`, read by the run's first request): two rules a worker, at least
 * JOB_LANE_WIDTH (an endpoint scaled to zero reports none, yet starts workers when jobs come) and
 * at most JOB_LANE_MAX_WIDTH.
 */
export function jobLaneWidth(health: unknown): JobWidth {
  const workers = health !== null && typeof health === "object" ? (health as { workers?: unknown }).workers : undefined;
  const count = (k: string) => {
    const n = workers !== null && typeof workers === "object" ? (workers as Record<string, unknown>)[k] : undefined;
    return typeof n === "number" && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
  };
  const idle = count("idle");
  const running = count("running");
  const bounds = `${RULES_PER_WORKER} a worker, within ${JOB_LANE_WIDTH}–${JOB_LANE_MAX_WIDTH}`;
  if (idle === undefined || running === undefined) return { width: JOB_LANE_WIDTH, why: `health reported no worker counts: the floor, ${JOB_LANE_WIDTH}` };
  const reported = idle + running;
  const width = Math.min(JOB_LANE_MAX_WIDTH, Math.max(JOB_LANE_WIDTH, RULES_PER_WORKER * reported));
  return { width, why: `health reported ${reported} worker${reported === 1 ? "" : "s"} (idle ${idle}, running ${running}): ${bounds}` };
}

/** Job rules that remove other rules' jobs (purge-queue takes every queued job of the endpoint): the jobs lane's exclusive window. */
const JOB_EXCLUSIVE = new Set(["jobs.empty-body", "jobs.purge.queued-only", "jobs.purge.count"]);
const JOB_EXCLUSIVE_WHY = "purge-queue (which jobs.empty-body sends too) removes every queued job of the endpoint, other job rules' too";

/**
 * The job rules that take longest against a real-time target (issue 32's measurements: cancels
 * watched past a handler's end, properties of several timed jobs), started first so that the
 * lane's last minutes are not one long rule alone. The rest keep their registration order.
 */
const JOBS_SLOW_FIRST = [
  "jobs.cancel.never-completes",
  "jobs.transition-legal",
  "jobs.delay-time",
  "jobs.runsync.wait-not-retention",
  "jobs.status.ttl",
  "jobs.cancel.response",
  "jobs.cancel.running",
  "jobs.cancel.queued",
];

function slowFirst(units: Unit[]): Unit[] {
  // A group's unit ranks as its slowest known member.
  const rank = (u: Unit) => Math.min(...u.ids.map((id) => {
    const i = JOBS_SLOW_FIRST.indexOf(id);
    return i < 0 ? JOBS_SLOW_FIRST.length : i;
  }));
  return units.map((u, i) => ({ u, i })).sort((a, b) => rank(a.u) - rank(b.u) || a.i - b.i).map((x) => x.u);
}

/** The rate-limit rules that spend the other account's window: the auth lane's, after the auth rules. */
const OTHER_ACCOUNT_EXHAUSTION = new Set(["ratelimit.429-when-spent", "ratelimit.retry-after", "ratelimit.429-detail-names-window"]);

export function laneName(ruleId: string, groupId?: string): string {
  if (groupId) return LANE_OF_GROUP[groupId] ?? groupId;
  if (OTHER_ACCOUNT_EXHAUSTION.has(ruleId)) return "auth";
  if (LANE_OF_RULE[ruleId] !== undefined) return LANE_OF_RULE[ruleId];
  const area = ruleId.split(".")[0] ?? ruleId;
  return LANE_OF_AREA[area] ?? area;
}

/** Units in registration order; a group's selected members become one unit where its first member stands. */
function units(selected: readonly string[], registry: CheckRegistry): { unit: Unit; lane: string }[] {
  const out: { unit: Unit; lane: string }[] = [];
  const grouped = new Map<string, string[]>();
  for (const id of selected) {
    const group = registry.get(id)?.group;
    if (!group) {
      out.push({ unit: { ids: [id] }, lane: laneName(id) });
      continue;
    }
    const members = grouped.get(group.id);
    if (members) members.push(id);
    else {
      const ids = [id];
      grouped.set(group.id, ids);
      out.push({ unit: { ids }, lane: laneName(id, group.id) });
    }
  }
  return out;
}

/** Every unit of a lane, its exclusive window's included. */
export function laneUnits(lane: Lane): Unit[] {
  return [...lane.units, ...(lane.exclusive?.units ?? [])];
}

/** The plan in words, one line a lane: which rules run beside which, and why a window is exclusive. */
export function describePlan(plan: Plan): string[] {
  const one = (l: Lane) => {
    // A group's unit is judged by one run, but counts its rules.
    const rules = l.units.reduce((n, u) => n + u.ids.length, 0);
    const why = l.widthWhy ? ` (${l.widthWhy})` : "";
    const width = (l.width ?? 1) > 1 ? `${rules} rules, ${l.width} at a time${why}` : `${rules} rule${rules === 1 ? "" : "s"} one after the other${why}`;
    const ex = l.exclusive ? `; then alone: ${l.exclusive.units.map((u) => u.ids.join("+")).join(", ")} (${l.exclusive.why})` : "";
    return `${l.name}: ${width}${ex}`;
  };
  return [
    ...plan.before.map((l) => `before the others, alone: ${one(l)}`),
    ...plan.concurrent.map((l) => `side by side: ${one(l)}`),
    ...plan.after.map((l) => `after the others, alone: ${one(l)}`),
  ];
}

/** `jobWidth`: job rules at a time in the jobs lane, and why (1 under --fail-fast: a rule started beside the failing one would still run). */
export function planLanes(selected: readonly string[], registry: CheckRegistry, concurrent: boolean, jobWidth: number | JobWidth = JOB_LANE_WIDTH): Plan {
  const jw: JobWidth = typeof jobWidth === "number" ? { width: jobWidth, why: "" } : jobWidth;
  const all = units(selected, registry);
  if (!concurrent) {
    // Taking turns, the registration order stands (rate limits last); the clock is the suite's, so no window is waited for in real time.
    const rate = all.filter((u) => u.unit.ids[0]!.startsWith("ratelimit.")).map((u) => u.unit);
    const rest = all.filter((u) => !u.unit.ids[0]!.startsWith("ratelimit.")).map((u) => u.unit);
    return { before: [], concurrent: rest.length ? [{ name: "all", units: rest }] : [], after: rate.length ? [{ name: "ratelimit", units: rate }] : [] };
  }
  const rate = all.filter((u) => u.lane === "ratelimit").map((u) => u.unit);
  const last = all.filter((u) => ENDPOINT_ALONE.has(u.unit.ids[0]!)).map((u) => u.unit);
  const rest = all.filter((u) => u.lane !== "ratelimit" && !ENDPOINT_ALONE.has(u.unit.ids[0]!));
  const alone = rate.length ? [{ name: "ratelimit", units: rate }] : [];
  const lanes = new Map<string, Lane>();
  for (const { unit, lane } of rest) {
    const l = lanes.get(lane) ?? { name: lane, units: [] };
    l.units.push(unit);
    lanes.set(lane, l);
  }
  const jobs = lanes.get("jobs");
  if (jobs) {
    const exclusive = jobs.units.filter((u) => JOB_EXCLUSIVE.has(u.ids[0]!));
    const shared = slowFirst(jobs.units.filter((u) => !JOB_EXCLUSIVE.has(u.ids[0]!)));
    lanes.set("jobs", { name: "jobs", units: shared, width: jw.width, ...(jw.why ? { widthWhy: jw.why } : {}), ...(exclusive.length ? { exclusive: { units: exclusive, why: JOB_EXCLUSIVE_WHY } } : {}) });
  }
  return { before: alone, concurrent: [...lanes.values()], after: last.length ? [{ name: "endpoint-alone", units: last }] : [] };
}
