/**
 * #35 (jobs.payload.runsync-limit interrupted on a busy machine against a target family): on
 * virtual time a runsync's clock was advanced for its wait's worth only, and a 20 MB body reached
 * the target after those advances: the runsync then waited on a clock nobody moved. Here a target
 * that notices the runsync only after more advances than its wait (the body still in transit)
 * and answers one advance later, on a clock that keeps no count of parked waits: the clock keeps
 * moving past the wait's advances (whileAdvancing) and the answer comes.
 */
import t from "tap";
import "../../index.ts";
import { makeContext } from "../../../check-context.ts";
import { specCatalog } from "../../../rule-catalog.ts";
import { Client } from "../../../client.ts";
import { resolveOptions } from "../../../options.ts";
import { platformOracle } from "../../../oracle/platform-oracle.ts";
import { startTestServer } from "../../../test-support/test-server.ts";
import { JobSession } from "./job-session.ts";

t.test("a runsync whose body arrives after the wait's advances is answered: the clock moves until it is", async (t) => {
  let advances = 0;
  const arrivedAfter = 10;
  const server = await startTestServer(async (req, res) => {
    if (req.url.startsWith("/_sim/clock/advance")) {
      advances++;
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    // A clock read (the session's waits_parked probe): this target keeps no such count.
    if (req.url === "/_sim/clock") {
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
      return;
    }
    // The runsync: "received" once 10 advances have passed (its wait of 3 s is 4 or 5), answered one advance later.
    while (advances < arrivedAfter + 1) await new Promise((r) => setTimeout(r, 5));
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id: "j-1", status: "COMPLETED", output: {} }));
  });
  t.teardown(() => server.close());
  const options = resolveOptions({ target: server.url, apiKey: "k", timeoutMs: 60_000 });
  const client = Client.create({ timeoutMs: 60_000, keys: { api: "k" } });
  t.teardown(() => client.close());
  const rule = specCatalog.get("jobs.payload.runsync-limit")!;
  const ctx = makeContext({
    check: { ruleId: rule.id, run: async () => {}, needs: {}, raw429: false },
    rule,
    client,
    options,
    target: { rest: server.url, serverless: server.url, endpoint: "conformance" },
    oracle: platformOracle("lenient"),
    controlApi: true,
    log: () => {},
    transitions: new Set(),
  });
  const session = new JobSession(ctx);
  const { res } = await session.runRaw('{"input":{}}', "runsync", { wait: 3000 });
  t.equal(res.status, 200);
  t.ok(advances > arrivedAfter, `the clock moved past the wait's advances until the answer came (${advances} advances)`);
});
