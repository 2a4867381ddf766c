// The official JS client (runpod-sdk, unmodified) against the emulator over the real platform
// model: run, runSync (with its status-sync polling when the first wait elapses), stream, cancel,
// health and purgeQueue. Real clock at 10×: a 30 s job takes 3 s of wall time, and a runsync
// result's retention (a minute) 6 s, so the SDK's polls find it however busy the machine (at 1000×
// the retention was 60 ms, and a poll that came later met a 404).
import t from "tap";
import runpodSdk from "runpod-sdk";
import { startEmulator } from "../../../http/index.ts";
import { decodePngHeader } from "../../../domain/handlers/index.ts";
import { KEYS } from "./test-harness.ts";

t.test("runpod-sdk drives the job operations end to end", async (t) => {
  const emulator = await startEmulator({ clock: "real", speed: 10, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const log = console.log;
  console.log = () => undefined; // the SDK prints each poll
  t.teardown(() => {
    console.log = log;
  });
  const sdk = runpodSdk(KEYS.alpha, { baseUrl: `${emulator.serverlessUrl}/v2` });
  const endpoint = sdk.endpoint("conformance");
  if (endpoint === null) throw new Error("no endpoint");

  const queued = await endpoint.run({ input: { op: "echo", n: 1 } });
  t.match(queued, { id: /^[0-9a-f-]{36}$/, status: "IN_QUEUE" });

  // The SDK asks runsync to wait 20 s (virtual: 2 s of wall time); the 30 s job outlasts it, so the
  // SDK goes on with status-sync, for up to 20 s of wall time in all.
  const done = await endpoint.runSync({ input: { op: "sleep", ms: 30_000 } }, 20_000);
  t.match(done, { status: "COMPLETED", output: { slept_ms: 30_000 }, executionTime: 30_000, completed: true, succeeded: true });

  const streaming = await endpoint.run({ input: { op: "stream", chunks: 3, bytes: 5, ms: 1000 } });
  const chunks: unknown[] = [];
  for await (const chunk of endpoint.stream(streaming.id)) chunks.push(chunk);
  t.same(chunks, [{ output: "abcde" }, { output: "abcde" }, { output: "abcde" }], "every chunk once, in order");

  const status = await endpoint.status(queued.id);
  t.match(status, { id: queued.id, status: "COMPLETED", output: { op: "echo", n: 1 }, completed: true });

  const long = await endpoint.run({ input: { op: "sleep", ms: 600_000 } });
  t.match(await endpoint.cancel(long.id), { id: long.id, status: "CANCELLED" });

  const health = await endpoint.health();
  t.match(health, { jobs: { completed: Number, failed: 0, inProgress: Number, inQueue: Number, retried: 0 }, workers: { idle: Number, ready: Number } });
  // Exact counters are health.part.test.ts's business: in real time results expire as they go.
  t.match(await endpoint.purgeQueue(), { removed: Number, status: String });

  // A non-streaming model: the SDK's stream loop ends on the final status without chunks.
  const image = sdk.endpoint("flux-1-schnell");
  if (image === null) throw new Error("no endpoint");
  const picture = await image.run({ input: { prompt: "a lighthouse", width: 128, height: 96 } });
  const imageChunks: unknown[] = [];
  for await (const chunk of image.stream(picture.id)) imageChunks.push(chunk);
  t.same(imageChunks, []);
  const result = (await image.status(picture.id)) as { output: { image_url: string }[] };
  const png = decodePngHeader(new Uint8Array(Buffer.from(result.output[0].image_url.split(",")[1], "base64")));
  t.same([png.width, png.height], [128, 96]);
});
