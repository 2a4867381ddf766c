import t from "tap";
import { plan, planShard } from "./plan.ts";
import { loadScenario, loadScenarioFile } from "./scenario.ts";
import { simulate } from "./simulate.ts";

// The wrong guesses a JavaScript caller makes without the .d.ts files: each says what to pass.
t.test("simulate: a wrong call is a TypeError that says what to pass", async (t) => {
  const code = { name: "LibraryArgumentError", code: "CPSIM_ERR_ARGUMENT" };
  const call = (options: unknown) => () => simulate(options as Parameters<typeof simulate>[0]);
  t.throws(call(undefined), { ...code, message: /simulate\(options\): options must be an object .*got undefined; for example simulate\(\{ scenario: loadScenario\("default"\), seed: 1/ });
  t.throws(call("default"), { message: /options must be an object.*got the string "default"/ });
  t.throws(call({ scenario: "default", seed: 1 }), { message: /scenario is a scenario object, not a name: load it with loadScenario\("default"\)/ });
  t.throws(call({ scenario: loadScenarioFile("default"), seed: 1 }), { message: /pass \{ scenario: loaded.scenario, loaded \}/ });
  t.throws(call({ scenario: loadScenario("default") }), { message: /seed must be a whole number of at least 0, got undefined/ });
  t.throws(call({ scenario: loadScenario("default"), seed: 1, hours: "2" }), { message: /hours must be a positive number/ });
  t.ok(simulate({ scenario: loadScenario("default"), seed: 1, hours: 0.05 }).events > 0, "a right call runs");
  try {
    call({})();
  } catch (err) {
    t.ok(err instanceof TypeError, "a TypeError");
  }
});

t.test("plan and planShard: a wrong call is a TypeError that says what to pass", async (t) => {
  const call = (options: unknown) => plan(options as Parameters<typeof plan>[0]);
  await t.rejects(call(undefined), { name: "LibraryArgumentError", message: /plan\(options\): options must be an object \{ loaded, seed, seeds, workers \}, got undefined; for example plan\(\{ loaded: loadScenarioFile/ });
  await t.rejects(call({ scenario: loadScenario("mmc-queue"), seed: 1, seeds: 2, workers: 1 }), { message: /plan takes loaded \(loadScenarioFile\(name\)/ });
  await t.rejects(call({ loaded: "mmc-queue", seed: 1, seeds: 2, workers: 1 }), { message: /pass loadScenarioFile\("mmc-queue"\)/ });
  await t.rejects(call({ loaded: loadScenarioFile("mmc-queue"), seed: 1, seeds: 2 }), { message: /workers must be a whole number of at least 1, got undefined/ });
  await t.rejects(call({ loaded: loadScenarioFile("mmc-queue"), seed: 1, seeds: 2, workers: 1, sweep: "workersMax=2,3" }), { message: /sweep must be an array/ });
  await t.rejects(planShard(undefined as never, 0, 1), { message: /^planShard\(options, index, count\): options must be an object/ });
});
