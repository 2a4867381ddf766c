/**
 * graphql.pod-resume.*: a resume refused for capacity (the stopped pod's host GPUs taken
 * meanwhile, which the real platform documents) is tried again later, and a later resume that
 * the target accepts is judged. Against a target whose first two resumes of each pod are refused
 * this way, both rules pass, judged; one that refuses every resume leaves them unjudged, saying so.
 */
import t from "tap";
import type { ApiRequest } from "../../../sim/api/types.ts";
import { conform } from "../../conform.ts";
import { startBroken, type Breakage } from "../../test-support/graphql/broken-emulator.ts";
import "./index.ts";

const RULES = ["graphql.pod-resume.fields", "graphql.pod-resume.running"];
/** What a refused resume is sent on as: a harmless query, so the pod stays stopped. */
const STAND_IN = "query { myself { id } }";
const CAPACITY_ERROR = {
  errors: [{ message: "Pod cannot resume: not enough free GPUs on the host machine. Try again later.", extensions: { code: "CONFLICT" } }],
};

const isResume = (req: ApiRequest) => req.path === "/graphql" && JSON.stringify(req.body ?? "").includes("podResume");
const podOf = (req: ApiRequest) => /podId:\s*\\?"([^"\\]+)/.exec(JSON.stringify(req.body ?? ""))?.[1] ?? "";

/** Refuses the first `refused` resumes of each pod for capacity (Infinity: every one). */
function refusing(refused: number): Breakage {
  const seen = new Map<string, number>();
  return {
    request: (req) => {
      if (!isResume(req)) return req;
      const n = (seen.get(podOf(req)) ?? 0) + 1;
      seen.set(podOf(req), n);
      return n <= refused ? { ...req, body: { query: STAND_IN } } : req;
    },
    response: (res, req) => ((req.body as { query?: unknown } | undefined)?.query === STAND_IN ? { ...res, status: 200, body: CAPACITY_ERROR } : res),
  };
}

t.test("a resume refused for capacity three times, then accepted: judged, and passed", async (t) => {
  const broken = await startBroken(refusing(3));
  t.teardown(() => broken.emulator.close());
  const result = await conform({ only: RULES, seed: 1, reportDir: t.testdir() }, { startEmbedded: async () => broken.target });
  t.same(
    result.report.rules.map((r) => [r.id, r.status]),
    RULES.map((id) => [id, "pass"]),
  );
});

t.test("a resume refused for capacity every time: unjudged, with the reason", async (t) => {
  const broken = await startBroken(refusing(Number.POSITIVE_INFINITY));
  t.teardown(() => broken.emulator.close());
  const result = await conform({ only: RULES, seed: 1, reportDir: t.testdir() }, { startEmbedded: async () => broken.target });
  for (const r of result.report.rules) {
    t.equal(r.status, "skip", r.id);
    t.match(r.reason ?? "", /podResume was refused for capacity 4 times over 35 s/);
  }
});
