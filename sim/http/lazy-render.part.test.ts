// An image job's pictures are made when its result is read, on a worker thread: while a render is
// in progress (held open by the test, so the order is one of events, not of time) the server
// answers other requests, and the result, once written, has the bytes the handler's own renderer
// makes. A second read of the same result makes nothing again.
import t from "tap";
import { request } from "undici";
import { imageGenerationHandler } from "../domain/handlers/image-generation.ts";
import { startEmulator } from "./emulator.ts";
import { holdRenders, rendersInFlight } from "./lazy-render.ts";

const KEY = "Bearer cpsim_load_exempt_5b0e8d3a6c1f9247";

async function send(base: string, method: "GET" | "POST", path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const res = await request(base + path, {
    method,
    headers: { authorization: KEY, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.statusCode, text: await res.body.text() };
}

t.test("the server answers while an image result is being rendered; the bytes are the handler's", async (t) => {
  const emulator = await startEmulator({ clock: "manual" });
  t.teardown(() => emulator.close());
  const base = emulator.baseUrl;
  const input = { prompt: "a red fox", width: 2048, height: 2048, num_images: 4, seed: 42 };
  const run = await send(base, "POST", "/v2/flux-1-schnell/run", { input });
  t.equal(run.status, 200, run.text);
  const id = JSON.parse(run.text).id as string;
  await send(base, "POST", "/_sim/clock/advance", { ms: 600_000 });

  const release = holdRenders();
  let answered = false;
  const status = send(base, "GET", `/v2/flux-1-schnell/status/${id}`).then((r) => {
    answered = true;
    return r;
  });
  // Bounded wait for the render to start (the status request reached the server).
  for (let i = 0; i < 10_000 && rendersInFlight() === 0; i++) await new Promise((r) => setTimeout(r, 1));
  t.equal(rendersInFlight(), 4, "the 4 pictures are being made");
  const health = await send(base, "GET", "/v2/flux-1-schnell/health");
  t.equal(health.status, 200, "a health request is answered meanwhile");
  t.notOk(answered, "before the result");
  release();
  const result = await status;
  t.equal(result.status, 200);
  const body = JSON.parse(result.text);
  t.equal(body.status, "COMPLETED");
  const plan = imageGenerationHandler.plan(input, { jobId: "any", seed: 0 });
  if (plan.kind !== "complete") throw new Error("expected a completion");
  t.equal(JSON.stringify(body.output), JSON.stringify(plan.output), "the pictures the handler's renderer makes");

  const again = await send(base, "GET", `/v2/flux-1-schnell/status/${id}`);
  t.equal(rendersInFlight(), 0);
  t.equal(JSON.stringify(JSON.parse(again.text).output), JSON.stringify(plan.output), "read again: the same bytes");
});
