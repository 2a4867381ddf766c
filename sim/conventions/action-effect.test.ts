/**
 * The open-choice space's `actionEffect` (action-effect.ts) over a real server with a manual
 * clock: a delayed stop answers 200 with the pod as it was, reads keep showing it until the delay
 * has passed on the service's clock, then the stop shows; the emulator's shows at once.
 */
import t from "tap";
import { startEmulator } from "../http/index.ts";
import { EMULATOR_CONVENTIONS, type Conventions } from "./index.ts";

async function target(actionEffect: Conventions["actionEffect"]) {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", control: true, conventions: { ...EMULATOR_CONVENTIONS, actionEffect, lists: "bare" } });
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emulator.baseUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : undefined };
  };
  const advance = (ms: number) => call("POST", "/_sim/clock/advance", { ms });
  const gpus = (await call("GET", "/v2/catalog/gpus")).json as { id: string }[];
  const pod = (await call("POST", "/v2/pods", { name: "effect", image: "ubuntu:22.04", gpu: { id: gpus[0]!.id } })).json as { id: string };
  // Running before it is stopped.
  for (let i = 0; i < 60 && (await call("GET", `/v2/pods/${pod.id}`)).json.status !== "RUNNING"; i++) await advance(5000);
  return { call, advance, pod: pod.id, stop: () => emulator.close() };
}

t.test("immediate (the emulator's): the stop shows in its answer and the next read", async (t) => {
  const { call, pod, stop } = await target("immediate");
  t.teardown(stop);
  const stopped = await call("POST", `/v2/pods/${pod}/action`, { action: "stop" });
  t.same([stopped.status, stopped.json.status], [200, "EXITED"]);
  t.equal((await call("GET", `/v2/pods/${pod}`)).json.status, "EXITED");
});

t.test("delayed-30s: 200 with the pod as it was; reads show it for 30 s of the service's time, then EXITED", async (t) => {
  const { call, advance, pod, stop } = await target("delayed-30s");
  t.teardown(stop);
  t.equal((await call("GET", `/v2/pods/${pod}`)).json.status, "RUNNING");
  const stopped = await call("POST", `/v2/pods/${pod}/action`, { action: "stop" });
  t.same([stopped.status, stopped.json.status], [200, "RUNNING"], "answered at once, the effect not shown yet");
  t.equal((await call("GET", `/v2/pods/${pod}`)).json.status, "RUNNING", "a read within the delay");
  t.equal(((await call("GET", "/v2/pods")).json as { id: string; status: string }[]).find((p) => p.id === pod)?.status, "RUNNING", "the list too");
  await advance(29_000);
  t.equal((await call("GET", `/v2/pods/${pod}`)).json.status, "RUNNING", "29 s on");
  await advance(1_000);
  t.equal((await call("GET", `/v2/pods/${pod}`)).json.status, "EXITED", "30 s on: the stop shows");
  t.equal(((await call("GET", "/v2/pods")).json as { id: string; status: string }[]).find((p) => p.id === pod)?.status, "EXITED");
});
