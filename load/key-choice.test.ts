/**
 * Which key a load run uses (#35): a shell set up for "Check my service" exports CPSIM_API_KEY,
 * and the README's load quick start then runs against the embedded emulator. That run must keep
 * the emulator's rate-limit-exempt key (the exported one is rate-limited there: 996 answers of
 * 429), say which key it uses and why, and its reproduce line must name the variable a key came
 * from (or a placeholder for a flag's), never the key.
 */
import t from "tap";
import { startEmulator } from "../sim/http/index.ts";
import { optionsFromFlags } from "./cli.ts";
import { keyChoice, load } from "./load.ts";

const limitedKey = "cpsim_beta_full_91d4e6a2c7b3f058";

t.test("$CPSIM_API_KEY counts with --target only; a flag always wins", async (t) => {
  const env = { CPSIM_API_KEY: "from-env", CPSIM_LIMITED_API_KEY: "limited-env" };
  const embedded = optionsFromFlags({}, env);
  t.equal(embedded.apiKey, undefined, "the embedded emulator keeps its own key");
  t.equal(embedded.limitedApiKey, undefined);
  const target = optionsFromFlags({ target: "http://127.0.0.1:1" }, env);
  t.same([target.apiKey, target.limitedApiKey, target.keysFromEnvironment], ["from-env", "limited-env", ["api", "limited"]]);
  const flag = optionsFromFlags({ target: "http://127.0.0.1:1", "api-key": "flag" }, env);
  t.same([flag.apiKey, flag.keysFromEnvironment], ["flag", ["limited"]]);
  t.same(optionsFromFlags({ "api-key": "flag" }, env).apiKey, "flag", "--api-key without --target is used as given");
});

t.test("the run says which key it uses and why", async (t) => {
  t.match(keyChoice({}, true), /embedded emulator's rate-limit-exempt key.*\$CPSIM_API_KEY is read with --target only/);
  t.match(keyChoice({ apiKey: "k" }, true), /the --api-key given \(the embedded emulator rate-limits every key but its exempt one\)/);
  t.match(keyChoice({ apiKey: "k", keysFromEnvironment: ["api"] }, false), /^\$CPSIM_API_KEY: the target's quota for it bounds the run; --respect-rate-limit paces/);
});

t.test("the README's load quick start with CPSIM_API_KEY exported: no 429, the exempt key, and the variable in the reproduce line", async (t) => {
  // The embedded emulator, in this process rather than a child (the same server and keys).
  const emulator = await startEmulator({ clock: "real", seed: 5 });
  t.teardown(() => emulator.close());
  let out = "";
  const io = { stdout: (s: string) => void (out += s), stderr: (s: string) => void (out += s) };
  const options = optionsFromFlags({ scenario: ["run-small"], "max-requests": 150, quiet: true }, { CPSIM_API_KEY: limitedKey });
  const result = await load(
    // Bounded by the count: two minutes is far more than 150 requests take, however busy the machine.
    { ...options, durationS: 120, seed: 5, reportDir: t.testdir() },
    { io, startEmulator: async () => ({ baseUrl: emulator.baseUrl, serverlessUrl: emulator.serverlessUrl, apiKeys: emulator.apiKeys, pid: process.pid, stop: async () => {} }) },
  );
  const s = result.report!.scenarios[0];
  t.equal(s.rateLimited, 0, `no answer was 429 (more than the rate-limited key's 60 a minute were sent: ${s.requests})`);
  t.ok(s.requests > 60, "the run sent more than the limited key's minute quota");
  t.match(out, /key: the embedded emulator's rate-limit-exempt key/);
  t.notMatch(out, new RegExp(limitedKey), "the key itself is never printed");

  // Against a target with the exported key: the reproduce line names the variable.
  const failed = await load(
    { ...optionsFromFlags({ target: emulator.baseUrl, scenario: ["run-small"], "max-requests": 120, quiet: true }, { CPSIM_API_KEY: limitedKey }), durationS: 120, seed: 6, reportDir: t.testdir() },
    { io: { stdout: () => {}, stderr: () => {} } },
  );
  t.match(failed.report!.reproduce, /^npx cpsim load --target \S+ --api-key "\$CPSIM_API_KEY" --scenario run-small/);
  t.notMatch(failed.report!.reproduce, new RegExp(limitedKey));
  // More requests than the key's 60 a minute: the 429s name the quota and the flag that paces to it.
  const s429 = failed.report!.scenarios[0]!;
  t.ok(s429.rateLimited > 0, `the limited key met 429s (${s429.rateLimited})`);
  t.match(s429.notes.join("\n"), /the key's quota: "minute" 60 per 60 s.*--respect-rate-limit paces/);
  const alpha = emulator.apiKeys.find((k) => k.account === "acct-alpha" && k.access === "full")!.key;
  const flagged = await load(
    { ...optionsFromFlags({ target: emulator.baseUrl, "api-key": alpha, scenario: ["run-small"], "max-requests": 5, quiet: true }, {}), durationS: 1, seed: 7, reportDir: t.testdir() },
    { io: { stdout: () => {}, stderr: () => {} } },
  );
  t.match(flagged.report!.reproduce, /--api-key '<your --api-key>'/, "a key given as a flag shows as a placeholder, not as $CPSIM_API_KEY");
});
