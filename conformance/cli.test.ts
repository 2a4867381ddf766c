/**
 * `cpsim conform` end to end against small local servers, with framework self-test checks
 * registered in a registry of their own (the suite's real checks come later): exit codes 0, 1
 * and 2, reports written, keys kept out of them, the baseline gate, target errors.
 */
import t from "tap";
import { execFile } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { ConformanceReport } from "../reports/conformance-report.ts";
import { usageLine, type CommandModule } from "../sim/cli/args.ts";
import { commands, main } from "../sim/cli/main.ts";
import * as cli from "./cli.ts";
import { run, spec } from "./cli.ts";
import { CheckRegistry } from "./check-registry.ts";
import type { CheckFn } from "./check.ts";
import { catalogOf, type Rule } from "./rule-catalog.ts";
import { sendJson, startTestServer, type TestServer } from "./test-support/test-server.ts";

const SECRET = "sk-live-SECRET-0123456789";

function rule(id: string, extra: Partial<Rule> = {}): Rule {
  return { id, title: `self test ${id}`, spec: `The sentence behind ${id}.`, section: "Self tests", source: "spec", severity: "error", kind: "request", ...extra };
}

const catalog = catalogOf([
  rule("self.pass"),
  rule("self.fail"),
  rule("self.fail-too"),
  rule("self.needs-other"),
  rule("self.choice", { source: "choices" }),
  rule("self.timeout"),
  rule("self.crash"),
  rule("self.unchecked"),
]);

/** Creates a pod and checks the 201 carries status PROVISIONING; the broken server says RUNNING. */
const createsProvisioning: CheckFn = async (ctx) => {
  const res = await ctx.client.request({ method: "POST", url: `${ctx.target.rest}/v2/pods`, auth: { key: "api" }, json: { name: "x", image: "busybox", gpu: { id: "A" } } });
  const status = (res.json as { status?: string } | undefined)?.status;
  ctx.exercised("pod", "(none)", status ?? "?");
  if (res.status !== 201 || status !== "PROVISIONING") return ctx.fail({ expected: "201 with a pod whose status is PROVISIONING" });
};

function registry(): CheckRegistry {
  const r = new CheckRegistry(catalog);
  r.register("self.pass", async (ctx) => {
    const res = await ctx.client.request({ method: "GET", url: `${ctx.target.rest}/v2/pods`, auth: { key: "api" } });
    if (res.status !== 200) return ctx.fail({ expected: "200" });
  });
  r.register("self.fail", createsProvisioning);
  r.register("self.fail-too", createsProvisioning);
  r.register("self.needs-other", () => {}, { needs: { keys: ["other"] } });
  r.register("self.choice", (ctx) => ctx.pass());
  r.register("self.timeout", async (ctx) => {
    await ctx.client.request({ method: "GET", url: `${ctx.target.rest}/stall?ms=120000`, auth: { key: "api" } });
  });
  r.register("self.crash", () => {
    throw new Error("oops");
  });
  return r;
}

/** Requests to /stall in flight now, and the most at once since the last reset. */
const stalls = { inFlight: 0, most: 0 };

/** The platform, broken: a created pod claims to be RUNNING at once. It echoes keys back too. */
async function brokenPlatform(): Promise<TestServer> {
  return startTestServer(async (req, res) => {
    if (req.url?.startsWith("/stall")) {
      // 3 s unless ?ms= says otherwise; the timer does not keep the test process alive.
      const ms = Number(new URL(req.url, "http://x").searchParams.get("ms") ?? 3000);
      stalls.most = Math.max(stalls.most, ++stalls.inFlight);
      let ended = false;
      const end = () => void (ended || (ended = true, stalls.inFlight--));
      res.on("close", end); // a client that gave up is no longer in flight
      await new Promise((resolve) => setTimeout(resolve, ms).unref());
      end();
      return sendJson(res, 200, {});
    }
    if (req.method === "POST" && req.url === "/v2/pods") return sendJson(res, 201, { id: "pod-1", status: "RUNNING", echo: req.headers.authorization });
    if (req.url === "/v2/pods") return sendJson(res, 200, { pods: [] }, { ratelimit: `"minute";r=59;t=60` });
    return sendJson(res, 404, { title: "Not Found", status: 404, detail: "no such route" });
  });
}

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out: () => out.join(""), err: () => err.join("") };
}

async function conformRun(args: string[], deps = {}) {
  const c = capture();
  const code = await run(args, c.io, { registry: registry(), terminalWidth: 100, ...deps });
  return { code, stdout: c.out(), stderr: c.err() };
}

const readReport = async (dir: string) => JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ConformanceReport;

t.test("--help prints the fixed usage and exits 0", async (t) => {
  const r = await conformRun(["--help"]);
  t.equal(r.code, 0);
  t.match(r.stdout, `Usage: ${usageLine(spec)}\n`, "the usage line, with every flag of the table");
  for (const flag of ["--target", "--serverless-url", "--api-key", "--restricted-api-key", "--other-api-key", "--endpoint", "--seed", "--runs", "--profile", "--only", "--skip", "--slow", "--timeout-ms", "--max-duration", "--rate-limit-budget", "--min-coverage", "--concurrency", "--baseline", "--report-dir", "--junit", "--json", "--quiet"]) {
    t.match(r.stdout, `  ${flag}`);
  }
  t.match(r.stdout, /--min-coverage PCT .*\(default: 60\)/, "the coverage floor is stated");
  t.match(r.stdout, /sized for the target: 50 .*8 against a real-time target/, "how property runs are sized");
});

t.test("exit 0: every selected rule passes; progress, summary, wall time and reports", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.needs-other,self.choice", "--seed", "5", "--report-dir", dir, "--min-coverage", "30"]);
  t.equal(r.code, 0, r.stderr);
  t.match(r.stdout, /^PASSED \(1 of 3 rules judged\)$/m, "the verdict says how much was judged");
  t.match(r.stdout, /^cpsim conform: seed 5\n/);
  t.match(r.stdout, /api-key given/);
  t.match(r.stdout, /\[1\/3\] PASS  self\.pass/);
  t.match(r.stdout, /\[2\/3\] SKIP  self\.needs-other .*needs --other-api-key/);
  t.match(r.stdout, /\[3\/3\] SKIP  self\.choice .*--profile strict/);
  t.match(r.stdout, /1 passed, 0 failed, 2 skipped, 0 known/);
  t.match(r.stdout, /wall time .*, 1 request, [\d.]+ requests\/s/);
  const report = await readReport(dir);
  t.same(report.summary, { passed: 1, failed: 0, skipped: 2, setupNotReached: 0, known: 0, targetErrors: 0 });
  t.equal(report.seed, 5);
  t.equal(report.coverage.rules.total, 8);
  t.equal(report.coverage.rules.checked, 1);
  t.match(await readFile(join(dir, "junit.xml"), "utf8"), /<testsuites name="cpsim conform" tests="3" failures="0"/);
  t.match(await readFile(join(dir, "report.html"), "utf8"), /PASSED \(1 of 3 rules judged\)/);
  t.match(await readFile(join(dir, "junit.xml"), "utf8"), /<property name="verdict" value="PASSED \(1 of 3 rules judged\)"\/>/);
  t.equal(server.received.filter((q) => q.url === "/v2/pods")[0].headers.authorization, `Bearer ${SECRET}`);
});

t.test("a selected rule no check judges is named, not counted: progress, counts and verdict say the same total (#35)", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.unchecked", "--report-dir", dir]);
  t.equal(r.code, 0, r.stdout);
  t.match(r.stdout, /1 rule\(s\) of the selection are not judged by conform and not counted: self\.unchecked/);
  t.match(r.stdout, /\[1\/1\] PASS  self\.pass/);
  t.match(r.stdout, /PASSED \(1 of 1 rules judged\)/);
  t.equal((await readReport(dir)).coverage.rules.selected, 1);
});

t.test("--profile strict runs the choices.md rules", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.choice", "--profile", "strict", "--report-dir", t.testdir()]);
  t.equal(r.code, 0);
  t.match(r.stdout, /PASS  self\.choice/);
});

t.test("exit 1: a failing rule, with evidence and a curl script that shows the failure", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.*", "--skip", "self.timeout,self.crash", "--seed", "11", "--report-dir", dir, "--junit", join(dir, "ci", "junit.xml")]);
  t.equal(r.code, 1, r.stderr);
  t.match(r.stdout, /FAIL  self\.fail /);
  t.match(r.stdout, /reproduce self\.fail with: npx cpsim conform --target http:\/\/127\.0\.0\.1:\d+ --api-key '<your --api-key>' --seed 11 --only self\.fail/);
  const report = await readReport(dir);
  const failed = report.rules.find((x) => x.id === "self.fail")!;
  t.equal(failed.status, "fail");
  const f = failed.failures[0];
  t.equal(f.spec, "The sentence behind self.fail.");
  t.equal(f.evidence.expected, "201 with a pod whose status is PROVISIONING");
  t.equal(f.evidence.got.status, 201);
  t.equal(f.evidence.request.method, "POST");
  t.equal(f.evidence.request.headers.authorization, "Bearer ${CPSIM_API_KEY}");
  t.equal(f.reproduction.seed, 11);
  t.ok(report.coverage.transitions.some((x) => x.machine === "pod" && x.from === "(none)" && x.to === "PROVISIONING" && !x.exercised));

  for (const file of ["report.json", "report.html", "junit.xml", join("ci", "junit.xml")]) {
    const text = await readFile(join(dir, file), "utf8");
    t.notOk(text.includes(SECRET), `${file} holds no key, not even one the target echoed back`);
  }
  t.notOk(r.stdout.includes(SECRET), "nor does the terminal output");

  const script = join(dir, "repro.sh");
  await writeFile(script, f.reproduction.curl);
  const before = server.received.length;
  const out = await new Promise<{ stdout: string; code: number }>((resolve) =>
    execFile("bash", [script], { env: { PATH: process.env.PATH, CPSIM_API_KEY: SECRET } }, (err, stdout) => resolve({ stdout, code: err ? 1 : 0 })),
  );
  t.equal(out.code, 0);
  t.match(out.stdout, /HTTP\/1\.1 201 Created/);
  t.match(out.stdout, /"status":"RUNNING"/, "run by itself, the script shows the failure");
  t.equal(server.received[before].headers.authorization, `Bearer ${SECRET}`);
});

t.test("--baseline: failures already in the baseline are known and exit 0; a new one exits 1", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const first = t.testdir();
  const base = ["--target", server.url, "--api-key", SECRET, "--seed", "3"];
  t.equal((await conformRun([...base, "--only", "self.fail,self.pass", "--report-dir", join(first, "a")])).code, 1);
  const baseline = join(first, "a", "report.json");
  const again = await conformRun([...base, "--only", "self.fail,self.pass", "--report-dir", join(first, "b"), "--baseline", baseline]);
  t.equal(again.code, 0, "the same failure again is known");
  t.match(again.stdout, /KNOWN self\.fail/);
  const report = await readReport(join(first, "b"));
  t.equal(report.rules.find((x) => x.id === "self.fail")?.status, "known");
  t.equal(report.baseline, baseline);
  const worse = await conformRun([...base, "--only", "self.fail,self.fail-too", "--report-dir", join(first, "c"), "--baseline", baseline]);
  t.equal(worse.code, 1, "a failure the baseline did not have fails the run");
  t.same((await readReport(join(first, "c"))).rules.map((x) => x.status), ["known", "fail"]);
});

t.test("a timeout during the run is a target error with its request, never a verdict: exit 2", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.timeout,self.pass", "--timeout-ms", "200", "--report-dir", dir]);
  t.equal(r.code, 2);
  const report = await readReport(dir);
  t.same(report.rules.map((x) => [x.id, x.status]), [["self.pass", "pass"], ["self.timeout", "skip"]], "registration order");
  t.equal(report.summary.failed, 0);
  t.equal(report.targetErrors[0].code, "CPSIM_ERR_TARGET_TIMEOUT");
  t.match(report.targetErrors[0].request?.url, /\/stall\?ms=120000$/);
  t.equal(report.targetErrors[0].request?.headers.authorization, "Bearer ${CPSIM_API_KEY}");
  t.match(r.stdout, /target error in self\.timeout: CPSIM_ERR_TARGET_TIMEOUT/);
});

t.test("a check that crashes is reported as a bug of the suite, not as the rule failing", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.crash", "--report-dir", dir]);
  t.equal(r.code, 2);
  const report = await readReport(dir);
  t.equal(report.rules[0].status, "skip");
  t.match(report.rules[0].reason, /the check crashed \(a bug of the suite\): oops/);
  t.equal(report.targetErrors[0].code, "CPSIM_ERR_CHECK_CRASHED");
});

t.test("--json prints report.json on stdout and everything else on stderr", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass", "--json", "--report-dir", t.testdir()]);
  t.equal(r.code, 0);
  const report = JSON.parse(r.stdout) as ConformanceReport;
  t.equal(report.rules[0].id, "self.pass");
  t.match(r.stderr, /PASS  self\.pass/);
});

t.test("exit 2 for usage and configuration errors, saying which", async (t) => {
  const server = await brokenPlatform();
  const live = server.url;
  t.teardown(() => server.close());
  const dead = await startTestServer(() => {});
  const deadUrl = dead.url;
  await dead.close();
  const dir = t.testdir();
  await writeFile(join(dir, "bad.json"), "{}");
  const cases: [string[], RegExp][] = [
    [["--target", "nope"], /--target "nope" is not a URL/],
    [["--target", "ftp://host"], /must be an http:\/\/ or https:\/\/ URL/],
    [["--target", deadUrl], new RegExp(`--target ${deadUrl} is unreachable: .*ECONNREFUSED`)],
    [["--target", live, "--serverless-url", deadUrl], new RegExp(`--serverless-url ${deadUrl} is unreachable`)],
    [["--target", live, "--baseline", join(dir, "missing.json")], /--baseline .*missing\.json cannot be read/],
    [["--target", live, "--baseline", join(dir, "bad.json")], /bad\.json is not a cpsim report\.json: it has no "rules" array/],
    [["--target", live, "--only", "nothing.*"], /--only nothing\.\* matches no rule of the catalog/],
    [["--target", live, "--frobnicate"], /unknown option "--frobnicate"/],
    [["--target", live, "--profile", "loose"], /--profile must be one of lenient, strict/],
    [["--target", live, "--seed", "-3"], /--seed must be at least 0/],
    [["--target", live, "--max-duration", "0"], /--max-duration must be at least 1/],
    [["--target", live, "--max-duration", "soon"], /--max-duration must be a number/],
    [["--target", live, "--rate-limit-budget", "0"], /--rate-limit-budget must be at least 1/],
    [["--target", live, "--min-coverage", "101"], /--min-coverage must be at most 100/],
    [["--target", live, "--concurrency", "1"], /--concurrency must be at least 2/],
  ];
  for (const [args, message] of cases) {
    const r = await conformRun([...args, ...(args.includes(live) || args.includes(deadUrl) ? ["--api-key", SECRET] : []), "--report-dir", join(dir, "out")]);
    t.equal(r.code, 2, args.join(" "));
    t.match(r.stderr, message, args.join(" "));
  }
});

t.test("against --target, no key is a configuration error naming the flag and the variable, whatever else is right", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const r = await conformRun(["--target", server.url, "--only", "self.pass", "--report-dir", t.testdir()]);
  t.equal(r.code, 2);
  t.match(r.stderr, /no API key: .*--api-key KEY or set CPSIM_API_KEY/);
  t.equal(server.received.length, 0, "nothing was sent");
  const empty = await run(["--target", server.url, "--only", "self.pass", "--report-dir", t.testdir()], capture().io, { registry: registry() });
  t.equal(empty, 2, "an empty CPSIM_API_KEY (a CI secret that did not reach the job) is no key either");
  const withEnv = cli.optionsFromFlags({ target: server.url }, { CPSIM_API_KEY: "from-env" });
  t.equal(withEnv.apiKey, "from-env", "the variable stands in for the flag");
  t.same(withEnv.keysFromEnvironment, ["api"], "and the reproduce line will name the variable");
  // A shell set up for "your service" runs the embedded emulator with the emulator's own keys (#35).
  const embedded = cli.optionsFromFlags({}, { CPSIM_API_KEY: "from-env", CPSIM_OTHER_API_KEY: "other-env" });
  t.same([embedded.apiKey, embedded.otherApiKey], [undefined, undefined], "without --target the variables are not read");
});

t.test("--min-coverage: a run that judged fewer rules fails (exit 1), saying so", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.needs-other,self.choice", "--report-dir", dir]);
  t.equal(r.code, 1, "1 of 3 judged is below the default floor of 60%");
  t.match(r.stdout, /^FAILED \(only 1 of 3 rules judged, 33% < --min-coverage 60%\)$/m);
  t.match(r.stdout, /exit 1: 1 of 3 rules judged, below --min-coverage 60%/);
  t.match(await readFile(join(dir, "report.html"), "utf8"), /class="verdict s-fail">FAILED \(only 1 of 3 rules judged/);
  const report = await readReport(dir);
  t.equal(report.coverage.rules.selected, 3);
  t.equal(report.coverage.rules.minCoverage, 60);
  t.equal((await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.choice", "--min-coverage", "50", "--report-dir", t.testdir()])).code, 0, "at the floor exactly passes");
});

t.test("--max-duration: a rule that overruns is cut and the rules not reached are skipped, saying why", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const dir = t.testdir();
  // The rule's request stalls two minutes; the run's bound (8 s) leaves a busy machine time to reach it first.
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.timeout,self.crash", "--max-duration", "8", "--min-coverage", "0", "--report-dir", dir]);
  // The stalled request was cut, not waited for: the rule it served is reported interrupted (below).
  t.equal(r.code, 2, "nothing was judged: exit 2, whatever the floor");
  t.match(r.stdout, /exit 2: nothing was judged: all 2 selected rules were skipped/);
  const report = await readReport(dir);
  t.same(
    report.rules.map((x) => [x.id, x.status, x.reason]),
    [
      ["self.timeout", "skip", "interrupted: the run's bound (--max-duration 8 s) ran out while this rule ran"],
      ["self.crash", "skip", "not reached: the run's bound (--max-duration 8 s) ran out before this rule started"],
    ],
  );
  t.same(report.targetErrors, [], "the cut request is no target error");
});

t.test("--rate-limit-budget: a wait on the target's rate limit past it is a target error, and exit 2 says what to give", async (t) => {
  // Every answer says the minute window is spent for another 50 s.
  const server = await startTestServer((_req, res) => sendJson(res, 200, { pods: [] }, { ratelimit: `"minute";r=0;t=50`, "ratelimit-policy": `"minute";q=10;w=60` }));
  t.teardown(() => server.close());
  const dir = t.testdir();
  const r = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.choice", "--profile", "strict", "--rate-limit-budget", "1", "--min-coverage", "0", "--report-dir", dir]);
  t.equal(r.code, 2, "target errors left a rule unjudged");
  t.match(r.stdout, /rate-limit-budget 1 s/, "the options line names the budget");
  t.match(r.stdout, /exit 2: 1 target error\(s\) left rules unjudged; 1 of them waited out the target's rate limit past the run's budget of 1 s: give --rate-limit-budget \(or --max-duration\) more seconds, or keys with larger quotas/);
  const report = await readReport(dir);
  t.same(report.targetErrors.map((e) => [e.ruleId, e.code]), [["self.pass", "CPSIM_ERR_TARGET_RATE_LIMITED"]]);
});

t.test("--quiet prints only the summary and the failures; a terminal gets one updating progress line", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const quiet = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.fail", "--quiet", "--report-dir", t.testdir()]);
  t.equal(quiet.code, 1);
  t.notMatch(quiet.stdout, /cpsim conform: seed/, "no header");
  t.notMatch(quiet.stdout, /\[\d\/2\]/, "no progress");
  t.notMatch(quiet.stdout, /^reports:/m);
  t.match(quiet.stdout, /^FAIL self\.fail: 1 failure/m);
  t.match(quiet.stdout, /^FAILED \(1 failed; 2 of 2 rules judged\)$/m);
  const tty = await conformRun(["--target", server.url, "--api-key", SECRET, "--only", "self.pass,self.fail", "--report-dir", t.testdir()], { tty: true });
  t.match(tty.stdout, /\r\x1b\[K\[1\/2\] /, "the line is rewritten in place");
  t.match(tty.stdout, /\r\x1b\[K\[2\/2\] 1 passed, 1 failed, 0 skipped {2}self\.fail/);
  t.notMatch(tty.stdout, /\n\[1\/2\] PASS/, "no line per rule");
  const body = tty.stdout.slice(tty.stdout.indexOf("\n", tty.stdout.indexOf("report-dir")));
  t.equal(body.split("self.pass").length - 1, 1, "after the options header, each rule's id is printed once");
});

t.test("without --target the embedded target (the lead's extension point) is started, used and closed", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  let closed = false;
  const dir = t.testdir();
  const r = await conformRun(["--only", "self.pass", "--report-dir", dir], {
    startEmbedded: async () => ({ rest: server.url, keys: { api: "embedded-key" }, controlApi: true, close: async () => void (closed = true) }),
  });
  t.equal(r.code, 0, r.stderr);
  t.ok(closed);
  t.equal(server.received.find((q) => q.url === "/v2/pods")?.headers.authorization, "Bearer embedded-key");
  t.equal((await readReport(dir)).target, server.url);
});

t.test("the module fits the dispatcher: with the lead's one line in main.ts, `cpsim conform` runs it", async (t) => {
  const module: CommandModule = cli;
  t.equal(module.spec.name, "conform");
  commands.conform = { summary: spec.summary, load: () => import("./cli.ts") };
  t.teardown(() => void delete commands.conform);
  const c = capture();
  t.equal(await main(["conform", "--target", "nope"], c.io), 2);
  t.match(c.err(), /^cpsim conform: --target "nope" is not a URL/);
});

t.test("areas run concurrently against a real-time target, and take turns where the suite moves the clock", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const areas = new CheckRegistry(catalogOf([rule("alpha.slow"), rule("beta.slow")]));
  const stall: CheckFn = async (ctx) => {
    const res = await ctx.client.request({ method: "GET", url: `${ctx.target.rest}/stall`, auth: { key: "api" } });
    if (res.status !== 200) return ctx.fail({ expected: "200" });
  };
  areas.register("alpha.slow", stall).register("beta.slow", stall);
  // Judged by what the target saw, not by the time taken: how many of the checks' requests it held at once.
  const mostAtOnce = async (controlApi: boolean) => {
    stalls.most = 0;
    const code = await run(["--target", server.url, "--api-key", SECRET, "--report-dir", t.testdir()], capture().io, { registry: areas, controlApi });
    return { code, most: stalls.most };
  };
  const together = await mostAtOnce(false);
  t.equal(together.code, 0);
  t.equal(together.most, 2, "two areas' checks side by side: both requests in flight at once");
  const turns = await mostAtOnce(true);
  t.equal(turns.code, 0);
  t.equal(turns.most, 1, "one after the other on one clock: never two at once");
});

t.test("--explain-time prints the schedule and the critical path: the area that ended last and its rules", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const areas = new CheckRegistry(catalogOf([rule("alpha.quick"), rule("beta.slow"), rule("beta.slower")]));
  areas.register("alpha.quick", (ctx) => ctx.pass());
  const stall: CheckFn = async (ctx) => {
    const res = await ctx.client.request({ method: "GET", url: `${ctx.target.rest}/stall`, auth: { key: "api" } });
    if (res.status !== 200) return ctx.fail({ expected: "200" });
  };
  areas.register("beta.slow", stall).register("beta.slower", stall);
  const dir = t.testdir();
  const explained = capture();
  const code = await run(["--target", server.url, "--api-key", SECRET, "--report-dir", dir, "--explain-time"], explained.io, { registry: areas, controlApi: false });
  t.equal(code, 0);
  const out = explained.out();
  t.match(out, /^schedule:$/m, "the schedule heading");
  // This target serves no job endpoint: its 404 to the upload, given without reading the body, gives no rate (target-timing.ts).
  t.match(
    out,
    /^timing: round trip \d+ ms; upload not measured \(POST \S+\/v2\/conformance\/runsync answered 404, an answer given without reading the body\): request timeout 30000 ms \(as given\), property bounds ×1: /m,
    "what the run measured of the target and the bounds it took from it",
  );
  // beta's two stalled rules run one after the other in beta's lane, after alpha's instant one ended.
  t.match(out, /critical path: beta ended last \(lane [^)]*\): beta\.slow(er)? [\d.]+ s → beta\.slow(er)? [\d.]+ s/, "beta's lane, with both of its rules");
  const report = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ConformanceReport & { criticalPath?: { area: string; rules: { id: string }[] } };
  t.equal(report.criticalPath?.area, "beta", "report.json names the same area");
  t.same(report.criticalPath?.rules.map((r) => r.id).sort(), ["beta.slow", "beta.slower"]);
  const plain = capture();
  t.equal(await run(["--target", server.url, "--api-key", SECRET, "--report-dir", t.testdir()], plain.io, { registry: areas, controlApi: false }), 0);
  t.notMatch(plain.out(), /critical path:/, "without the flag the terminal does not explain (report.json still does)");
});

t.test("the embedded emulator runs in a child process that is gone when the run ends", async (t) => {
  const { startEmbedded } = await import("./embedded.ts");
  const { resolveOptions } = await import("./options.ts");
  const target = await startEmbedded(resolveOptions({ seed: 3 }));
  const res = await fetch(`${target.rest}/_sim/clock`);
  t.equal(res.status, 200, "it serves the control API");
  t.ok(target.keys?.api, "and hands over its keys");
  await target.close();
  const after = await fetch(`${target.rest}/_sim/clock`).then(
    () => "answered",
    () => "refused",
  );
  t.equal(after, "refused", "closed: nothing listens any more");
});

t.test("a property stopped by its time bound before any run finished is a skip, not a crash", async (t) => {
  const server = await brokenPlatform();
  t.teardown(() => server.close());
  const { PropertyInterrupted } = await import("./checks/support/interrupted.ts");
  const r = new CheckRegistry(catalog);
  r.register("self.pass", () => {
    throw new PropertyInterrupted();
  });
  const dir = t.testdir();
  const code = await run(["--target", server.url, "--api-key", SECRET, "--only", "self.pass", "--min-coverage", "0", "--report-dir", dir], capture().io, { registry: r });
  t.equal(code, 2, "its only rule unjudged: nothing was judged, exit 2");
  const report = await readReport(dir);
  t.match(report.rules[0]?.reason, /^interrupted: the property's time bound ran out before a run could judge the rule/);
  t.same(report.targetErrors, [], "no bug of the suite, no target error");
});
