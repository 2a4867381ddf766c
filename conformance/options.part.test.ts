import t from "tap";
import { defaultOptions, describeOptions, EMBEDDED_RUNS, REALTIME_RUNS, reproduceCommand, resolveOptions } from "./options.ts";
import { matchesGlob, selectRules, splitGlobs } from "./rule-glob.ts";

t.test("rule globs", async (t) => {
  t.ok(matchesGlob("pods.create.unknown-property", "pods.create.*"));
  t.ok(matchesGlob("pods.create.unknown-property", "pods.*"), "* crosses dots");
  t.notOk(matchesGlob("pods.update.mount-kind", "pods.create.*"));
  t.notOk(matchesGlob("podsXcreate.a", "pods.create.*"), "a dot is a dot");
  t.ok(matchesGlob("jobs.run.a1", "jobs.run.a?"));
  t.notOk(matchesGlob("jobs.run.a12", "jobs.run.a?"));
  t.same(splitGlobs(["pods.*, jobs.*", "auth.*"]), ["pods.*", "jobs.*", "auth.*"]);
  t.same(selectRules(["pods.a", "pods.b", "jobs.a"], ["pods.*", "jobs.a"], ["pods.b"]), ["pods.a", "jobs.a"]);
  t.same(selectRules(["pods.a", "jobs.a"], [], []), ["pods.a", "jobs.a"], "no --only: every rule");
});

t.test("options resolve with defaults, normalised URLs and paths under the working directory", async (t) => {
  const o = resolveOptions({ target: "http://127.0.0.1:8080/", apiKey: "k", seed: 7, reportDir: "out", junit: "ci/j.xml", only: ["pods.*,jobs.*"] }, "/work");
  t.equal(o.target, "http://127.0.0.1:8080");
  t.equal(o.serverlessUrl, "http://127.0.0.1:8080", "--serverless-url defaults to --target");
  t.equal(o.reportDir, "/work/out");
  t.equal(o.junit, "/work/ci/j.xml");
  t.same(o.only, ["pods.*", "jobs.*"]);
  t.equal(o.runs, REALTIME_RUNS, "a --target without --runs: sized as real time until the run learns otherwise");
  t.equal(o.runsGiven, false);
  t.equal(o.minCoverage, 60);
  t.equal(o.concurrency, defaultOptions.concurrency);
  t.equal(o.maxDurationS, undefined, "no bound unless asked");
  t.equal(o.profile, "lenient");
  const d = resolveOptions({}, "/work");
  t.equal(d.runs, EMBEDDED_RUNS, "the embedded emulator: many cheap runs");
  t.same([resolveOptions({ runs: 3 }).runs, resolveOptions({ runs: 3 }).runsGiven], [3, true]);
  t.equal(d.reportDir, "/work/reports/conformance");
  t.equal(d.target, undefined, "no target: the embedded emulator");
  t.ok(Number.isInteger(d.seed), "a seed is drawn when none is given");
  t.same(resolveOptions({ target: "https://a.example/api", apiKey: "k", serverlessUrl: "https://b.example" }).serverlessUrl, "https://b.example");
});

t.test("bad values are configuration errors naming the flag", async (t) => {
  const bad: [object, RegExp][] = [
    [{ target: "not a url" }, /--target "not a url" is not a URL/],
    [{ target: "ftp://x" }, /--target "ftp:\/\/x" must be an http/],
    [{ target: "http://u:p@x" }, /--target must not carry credentials/],
    [{ target: "http://x/?a=1" }, /without a query/],
    [{ target: "http://x", serverlessUrl: "nope" }, /--serverless-url "nope" is not a URL/],
    [{ target: "http://x" }, /no API key: .*--api-key KEY or set CPSIM_API_KEY/],
    [{ target: "http://x", apiKey: "" }, /no API key/],
    [{ maxDurationS: 0 }, /--max-duration must be a number of seconds above 0/],
    [{ maxDurationS: Number.NaN }, /--max-duration/],
    [{ minCoverage: -1 }, /--min-coverage must be a percentage from 0 to 100/],
    [{ minCoverage: 100.5 }, /--min-coverage/],
    [{ concurrency: 1 }, /--concurrency must be a whole number from 2 to 64/],
    [{ concurrency: 65 }, /--concurrency/],
    [{ runs: 0 }, /--runs must be a whole number/],
    [{ seed: -1 }, /--seed must be a whole number from 0/],
    [{ timeoutMs: 1.5 }, /--timeout-ms/],
    [{ endpoint: "a/b" }, /--endpoint "a\/b" is not an endpoint id/],
    [{ profile: "loose" }, /--profile must be lenient or strict/],
  ];
  for (const [input, message] of bad) t.throws(() => resolveOptions(input), { code: "CPSIM_ERR_CONFIG", exitCode: 2, message });
});

t.test("the reproduce command names the rule and seed, runs through npx, and names a key's variable only when the key came from it", async (t) => {
  const given = { target: "http://h:1", apiKey: "sk-secret", otherApiKey: "sk-other", seed: 9, profile: "strict", endpoint: "ep" } as const;
  const o = resolveOptions({ ...given, keysFromEnvironment: ["api", "other"] });
  const cmd = reproduceCommand(o, "pods.create.unknown-property");
  t.equal(
    cmd,
    `npx cpsim conform --target http://h:1 --api-key "$CPSIM_API_KEY" --other-api-key "$CPSIM_OTHER_API_KEY" --endpoint ep --profile strict --seed 9 --only pods.create.unknown-property`,
  );
  t.notMatch(cmd, /sk-/);
  // Keys passed as flags: the variables are not set in the user's shell, so the line says what to fill in.
  const flags = reproduceCommand(resolveOptions({ ...given, keysFromEnvironment: ["other"] }), "pods.create.unknown-property");
  t.match(flags, /^npx cpsim conform --target http:\/\/h:1 --api-key '<your --api-key>' --other-api-key "\$CPSIM_OTHER_API_KEY" /);
  t.notMatch(flags, /sk-/);
});

t.test("a --local-server run names that server as what it checks, not the emulator started beside it", async (t) => {
  const local = resolveOptions({ localServer: "http://localhost:8000" }, "/work");
  const text = describeOptions(local);
  t.match(text, /^local-server http:\/\/localhost:8000, /);
  t.notMatch(text, /target http|serverless-url|embedded emulator/);
  const both = describeOptions(resolveOptions({ target: "http://127.0.0.1:9000", apiKey: "k", localServer: "http://localhost:8000" }, "/work"));
  t.match(both, /^target http:\/\/127\.0\.0\.1:9000, serverless-url http:\/\/127\.0\.0\.1:9000, endpoint \S+, local-server http:\/\/localhost:8000, /, "with --target both are named");
  t.match(describeOptions(resolveOptions({}, "/work")), /^target \(embedded emulator\)/);
  // As conform() describes a --local-server run: the embedded emulator's URL filled in as the target.
  t.match(describeOptions({ ...local, target: "http://127.0.0.1:1234", serverlessUrl: "http://127.0.0.1:1234", embeddedTarget: true }), /^local-server http:\/\/localhost:8000, seed/);
});
