/**
 * For each defect cpsim documents (sim/defects), whether the proxy catches it from a plain
 * client's traffic: fetch on pods and catalogs, the official JS SDK on the job endpoints, GraphQL
 * with the key in `api_key`, and a client that forgot its key once. CAUGHT lists the defects that
 * traffic shows and the proxy finds (on the target's side, as the defect's own rule); every other
 * defect needs requests of its own (`cpsim conform`) or traffic this one does not make. A defect
 * newly caught, or one no longer caught, changes the list here: it is the table docs/proxy.md cites.
 */
import t from "tap";
import { defects as DEFECTS } from "../../sim/defects/index.ts";
import { emulatorBehindProxy } from "../test-support/proxy/setup.ts";
import { graphqlSession, jobSession, keylessSession, restSession } from "../test-support/proxy/traffic.ts";

export const CAUGHT: readonly string[] = [
  "create-answers-200", "create-starts-running", "create-omits-template", "terminated-comes-back", "run-answers-queued", "status-field-renamed",
  "completed-without-output", "cancel-answers-cancelling", "health-counters-strings", "not-found-plain-json", "success-text-plain",
  "jobs-without-key", "ratelimit-only-on-429", "ratelimit-without-reset", "ratelimit-hour-3599", "ratelimit-never-moves",
  "env-colon-pairs", "runsync-returns-early", "no-execution-time",
];

// 49 emulator sessions one after the other: longer than a file's default bound on a busy machine.
t.setTimeout(1_800_000);

/** The traffic of the defect's area: a plain client's, as it uses that part of the API. */
function sessionsFor(area: string) {
  if (area === "graphql") return [graphqlSession];
  if (area.startsWith("jobs")) return [jobSession];
  if (area === "auth") return [restSession, jobSession, keylessSession];
  return [restSession];
}

for (const d of DEFECTS) {
  const caughtHere = CAUGHT.includes(d.name);
  t.test(`--defect ${d.name} (${d.rule}): ${caughtHere ? "caught" : "not shown by this traffic"}`, async (t) => {
    const s = await emulatorBehindProxy(t, { defects: [d.name] });
    // A client that fails on the defect (the SDK throws at a 401) has still sent its traffic.
    for (const session of sessionsFor(d.area)) await session(s).catch(() => {});
    const { lateFindings } = await s.proxy.stop();
    const hit = [...s.findings, ...lateFindings].some((f) => f.rule.id === d.rule && f.side === "target");
    t.equal(hit, caughtHere, hit ? "caught" : "not caught");
  });
}
