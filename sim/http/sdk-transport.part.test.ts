// The official JS client against the transport (over the TEST backend): its base URL is the
// serverless URL plus /v2; it sends `{}` with Content-Type JSON on cancel and polls status-sync
// when a runsync wait elapses. The full SDK test against the platform model lives with sim/api.
import t from "tap";
import runpodSdk from "runpod-sdk";
import { startTestServer } from "./test-helpers.ts";

t.test("run, status, runSync (with status-sync polling) and cancel through runpod-sdk", async (t) => {
  // speed 1000: one wall millisecond is one virtual second.
  const s = await startTestServer({ clock: "real", speed: 1000 });
  t.teardown(() => s.emulator.close());
  const log = console.log;
  console.log = () => undefined; // the SDK prints each poll
  t.teardown(() => {
    console.log = log;
  });
  const endpoint = runpodSdk("test-key-full-a", { baseUrl: `${s.emulator.serverlessUrl}/v2` }).endpoint("conformance");
  if (endpoint === null) throw new Error("no endpoint");

  const queued = await endpoint.run({ input: { ms: 10 } });
  t.match(queued, { id: /^job-/, status: "IN_QUEUE" });
  let status = await endpoint.status(queued.id);
  for (let i = 0; i < 100 && status.status !== "COMPLETED"; i++) status = await endpoint.status(queued.id);
  t.match(status, { id: queued.id, status: "COMPLETED", output: { ms: 10 } });

  // A job of 100 virtual seconds (100 ms of wall time) outlasts runsync's first wait of 5 virtual
  // seconds: the SDK goes on with status-sync until it completes, well within its 5 s of wall time.
  s.backend.recordRequests = true;
  const done = await endpoint.runSync({ input: { ms: 100_000 } }, 5000);
  s.backend.recordRequests = false;
  t.match(done, { status: "COMPLETED", output: { ms: 100_000 }, completed: true, succeeded: true });
  const paths = s.backend.seen.map((r) => r.path.replace(/job-\d+/, "{id}"));
  t.ok(paths.includes("/v2/conformance/runsync"), "runsync first");
  t.ok(paths.includes("/v2/conformance/status-sync/{id}"), "then status-sync polling");

  const long = await endpoint.run({ input: { ms: 86_400_000 } });
  t.match(await endpoint.cancel(long.id), { id: long.id, status: "CANCELLED" });
});
