/**
 * The graphql checks against the embedded emulator (every rule passes, both profiles), and
 * against emulators with one behaviour broken: the suite must fail exactly the rule that
 * behaviour breaks, with a curl reproduction that, run by bash against that server, shows it.
 */
import t, { type Test } from "tap";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { RuleResult } from "../../../reports/conformance-report.ts";
import { conform, type ConformDeps } from "../../conform.ts";
import { startEmbedded } from "../../embedded.ts";
import { KEY_ENV, type Keys } from "../../keys.ts";
import "./index.ts";
import { editData, startBroken, type Breakage } from "../../test-support/graphql/broken-emulator.ts";

const run = promisify(execFile);

async function suite(t: Test, profile: "lenient" | "strict", start: NonNullable<ConformDeps["startEmbedded"]>) {
  const result = await conform({ only: ["graphql.*"], seed: 1, profile, reportDir: t.testdir() }, { startEmbedded: start });
  return result.report.rules;
}

const byStatus = (rules: readonly RuleResult[], status: string) => rules.filter((r) => r.status === status).map((r) => r.id).sort();

for (const profile of ["lenient", "strict"] as const) {
  t.test(`every graphql rule passes against the emulator (${profile})`, async (t) => {
    const rules = await suite(t, profile, startEmbedded);
    t.same(byStatus(rules, "fail"), [], "no rule fails");
    const skipped = rules.filter((r) => r.status === "skip");
    if (profile === "strict") t.same(skipped.map((r) => [r.id, r.reason]), [], "nothing skipped under strict");
    else t.same(byStatus(rules, "skip"), ["graphql.auth-bearer", "graphql.client-fields", "graphql.errors-envelope", "graphql.pod.types"], "only choices.md rules and the strict-only pod types skipped");
    t.ok(rules.length >= 22, "all graphql rules ran");
  });
}

/** Runs the reproduction script of a failure against the broken server, with the keys in the environment. */
async function replay(curl: string, keys: Keys): Promise<string> {
  const env: Record<string, string> = { ...(process.env as Record<string, string>) };
  for (const role of ["api", "restricted", "other"] as const) if (keys[role]) env[KEY_ENV[role]] = keys[role] as string;
  const { stdout } = await run("bash", ["-c", curl], { env, timeout: 30_000, maxBuffer: 4 * 1024 * 1024 });
  return stdout;
}

interface BrokenCase {
  readonly name: string;
  readonly profile?: "lenient" | "strict";
  readonly breakage: Breakage;
  /** The rules that must fail, and only they. */
  readonly fails: readonly string[];
  /** What the replay of the first listed rule's first failure must print. */
  readonly shows: RegExp;
}

const cases: BrokenCase[] = [
  {
    name: "env entries as `KEY: value`",
    breakage: {
      response: (res, req) =>
        editData(res, req, (data) => {
          const pod = data.podFindAndDeployOnDemand;
          if (pod && Array.isArray(pod.env)) pod.env = pod.env.map((e: string) => e.replace("=", ": "));
        }),
    },
    fails: ["graphql.env-key-value"],
    shows: /"env":\["CPSIM_[A-Z0-9_]+: /,
  },
  {
    name: "podStop answering desiredStatus STOPPED",
    breakage: {
      response: (res, req) =>
        editData(res, req, (data) => {
          if (data.podStop) data.podStop.desiredStatus = "STOPPED";
        }),
    },
    fails: ["graphql.pod-stop.exited"],
    shows: /"podStop":\{"id":"[^"]+","desiredStatus":"STOPPED"\}/,
  },
  {
    name: "podResume without imageName",
    breakage: {
      response: (res, req) =>
        editData(res, req, (data) => {
          if (data.podResume) delete data.podResume.imageName;
        }),
    },
    fails: ["graphql.pod-resume.fields"],
    shows: /"podResume":\{"id":"[^"]+","desiredStatus":"RUNNING"\}/,
  },
  {
    name: "a call without api_key served as the main account",
    breakage: {
      request: (req, keys) => (req.path === "/graphql" && !req.query.api_key && !req.headers.authorization ? { ...req, query: { ...req.query, api_key: keys.api as string } } : req),
    },
    fails: ["graphql.auth-api-key"],
    shows: /HTTP\/1\.1 200/,
  },
  {
    name: "stockStatus in lower case",
    breakage: {
      response: (res, req) =>
        editData(res, req, (data) => {
          for (const g of Array.isArray(data.gpuTypes) ? data.gpuTypes : []) if (g?.lowestPrice?.stockStatus) g.lowestPrice.stockStatus = g.lowestPrice.stockStatus.toLowerCase();
        }),
    },
    // Under lenient, gpu-type.types judges only the types its sentence states; the values are stock-status-enum's.
    fails: ["graphql.stock-status-enum"],
    shows: /"stockStatus":"(high|medium|low|none)"/,
  },
  {
    name: "allowedCudaVersions ignored",
    breakage: {
      request: (req) => {
        const body = req.body as { query?: unknown } | undefined;
        if (req.path !== "/graphql" || typeof body?.query !== "string") return req;
        return { ...req, body: { ...body, query: body.query.replace(/,?\s*allowedCudaVersions:\s*\[[^\]]*\]/, "") } };
      },
    },
    fails: ["graphql.allowed-cuda-versions"],
    shows: /"podFindAndDeployOnDemand":\{"id":"[^"]+"/,
  },
  {
    name: "errors without extensions.code",
    profile: "strict",
    breakage: {
      response: (res, req) => {
        const body = res.body as { errors?: Array<Record<string, unknown>> } | undefined;
        if (req.path !== "/graphql" || !Array.isArray(body?.errors)) return res;
        return { ...res, body: { ...body, errors: body.errors.map(({ extensions: _, ...rest }) => rest) } };
      },
    },
    fails: ["graphql.errors-envelope"],
    shows: /"errors":\[\{"message":"[^"]*"(,"locations":[^\]]*\])?(,"path":[^\]]*\])?\}\]/,
  },
];

for (const c of cases) {
  t.test(`a target with ${c.name} fails ${c.fails.join(" and ")}`, async (t) => {
    const broken = await startBroken(c.breakage);
    t.teardown(() => broken.emulator.close());
    const rules = await suite(t, c.profile ?? "lenient", async () => broken.target);
    t.same(byStatus(rules, "fail"), [...c.fails].sort(), "exactly the broken rule fails");
    const failure = rules.find((r) => r.id === c.fails[0])?.failures[0];
    t.ok(failure, "the failure is reported");
    if (!failure) return;
    t.match(failure.evidence.expected, /\S/, "it says what the spec requires");
    t.notMatch(failure.reproduction.curl, new RegExp(broken.keys.api as string), "the reproduction holds no key");
    const out = await replay(failure.reproduction.curl, broken.keys);
    t.match(out, c.shows, "replaying the reproduction shows the failure");
  });
}

/** Types the spec does not state, written otherwise than the emulator's schema: strict fails them, lenient does not. */
const unstatedTypes: Breakage = {
  response: (res, req) =>
    editData(res, req, (data) => {
      for (const g of Array.isArray(data.gpuTypes) ? data.gpuTypes : []) if (g && typeof g.memoryInGb === "number") g.memoryInGb = `${g.memoryInGb}`;
      const pods = [data.pod, data.podFindAndDeployOnDemand, ...(Array.isArray(data.myself?.pods) ? data.myself.pods : [])];
      for (const p of pods) {
        if (p && typeof p.machineId === "string") p.machineId = 7;
        if (p?.runtime && typeof p.runtime.uptimeInSeconds === "number") p.runtime.uptimeInSeconds = `${p.runtime.uptimeInSeconds}`;
      }
    }),
};
const TYPE_RULES = ["graphql.gpu-type.types", "graphql.pod.types", "graphql.runtime.types"];

t.test("types the sentences do not state (memoryInGb, machineId, uptimeInSeconds) are judged under strict only", async (t) => {
  const only = async (profile: "lenient" | "strict") => {
    const broken = await startBroken(unstatedTypes);
    try {
      const result = await conform({ only: TYPE_RULES, seed: 1, profile, reportDir: t.testdir() }, { startEmbedded: async () => broken.target });
      return result.report.rules;
    } finally {
      await broken.emulator.close();
    }
  };
  const lenient = await only("lenient");
  t.same(byStatus(lenient, "fail"), [], "lenient: no failure for a type the spec does not state");
  t.same(byStatus(lenient, "pass"), ["graphql.gpu-type.types", "graphql.runtime.types"], "lenient: the stated types and shapes still judged");
  t.match(lenient.find((r) => r.id === "graphql.pod.types")?.reason, /strict/);
  const strict = await only("strict");
  t.same(byStatus(strict, "fail"), TYPE_RULES, "strict: the emulator's schema required");
});
