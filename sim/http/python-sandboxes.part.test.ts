// The newest Python client's `runpod.sandbox` over HTTP, each request as runpod/api/sandboxes.py's
// AsyncSandboxAPI sends it (json= bodies with the None values left out, `state` and `labels=k=v`
// parameters, `Accept: text/event-stream` for logs), and each answer checked against what
// SandboxInfo.from_dict, ExecResult and the log stream's parser read: the lifecycle (CREATING,
// RUNNING, TERMINATED by request, idle timeout or lifetime), PATCH and extend, the 409 codes the
// client acts on, and exec's answer that never claims a command ran.
import t from "tap";
import { EXEC_NOT_RUN } from "../api/ops/rest/sandboxes.ts";
import { startEmulator } from "./index.ts";
import { call } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}`, "user-agent": "RunPod-Python-SDK/1.8.0" };
/** SandboxInfo.from_dict's required keys. */
const INFO_KEYS = ["id", "name", "state", "idleTimeoutSeconds", "maxLifetimeSeconds", "lastActivityAt", "idleExpiresAt", "expiresAt", "createdAt", "updatedAt"];

/** The SSE parser of AsyncSandboxLogStream._events: data lines joined, events at blank lines. */
function sseEvents(text: string): { source: string; line: string; ts: string; id: string | null }[] {
  const out: { source: string; line: string; ts: string; id: string | null }[] = [];
  let data: string[] = [];
  let id: string | null = null;
  for (const line of text.split(/\r\n|\r|\n/)) {
    if (line === "") {
      if (data.length > 0) {
        const p = JSON.parse(data.join("\n"));
        out.push({ source: p.source, line: p.line, ts: p.ts, id });
      }
      data = [];
      continue;
    }
    const [field, ...rest] = line.split(":");
    const value = rest.join(":").replace(/^ /, "");
    if (field === "data") data.push(value);
    else if (field === "id") id = value;
  }
  return out;
}

t.test("runpod.sandbox: create, exec, logs, list, update, extend, terminate", async (t) => {
  const emu = await startEmulator({ clock: "manual", logger: false });
  t.teardown(() => emu.close());
  const rest = (method: string, path: string, body?: unknown, h: Record<string, string> = headers) => call(emu.baseUrl, method, path, { headers: h, ...(body !== undefined ? { body } : {}) });
  const advance = (ms: number) => call(emu.baseUrl, "POST", "/_sim/clock/advance", { body: { ms } });

  // AsyncioSandbox(image=..., name=..., cpu_flavor_id=..., vcpu_count=2, ports={8888: "http"}, env, labels, ...)._create_body, Nones dropped.
  const createBody = {
    imageName: "python:3.11-slim", name: "scratch", cpuFlavorId: "cpu3c", vcpuCount: 2,
    ports: [{ port: 8888, protocol: "http" }], cmd: ["sleep", "infinity"], env: { A: "1" },
    idleTimeoutSeconds: 300, maxLifetimeSeconds: 3600, labels: { team: "ml" },
  };
  const made = await rest("POST", "/v2/sandboxes", createBody);
  t.equal(made.status, 201, JSON.stringify(made.body));
  for (const k of INFO_KEYS) t.ok(k in made.body, `from_dict reads ${k}`);
  t.match(made.body, { name: "scratch", state: "CREATING", imageName: "python:3.11-slim", cpuFlavorId: "cpu3c", compute: { vcpuCount: 2, memoryInGb: 4, containerDiskInGb: 10, costPerHr: 0.06 }, labels: { team: "ml" }, ports: [{ port: 8888, protocol: "http" }], startedAt: null, ssh: null });
  const id = made.body.id as string;

  // While CREATING: exec and the log handshake answer 409 sandbox_starting (the client retries them).
  const early = await rest("POST", `/v2/sandboxes/${id}/exec`, { command: ["echo", "hi"] });
  t.match(early, { status: 409, body: { code: "sandbox_starting" } });
  t.match(await rest("GET", `/v2/sandboxes/${id}/logs`, undefined, { ...headers, accept: "text/event-stream" }), { status: 409, body: { code: "sandbox_starting" } });

  await advance(2000);
  const running = await rest("GET", `/v2/sandboxes/${id}`);
  t.match(running.body, { state: "RUNNING", startedAt: String });

  // exec: a string output (the client requires one), an error saying nothing ran, no exit code.
  const exec = await rest("POST", `/v2/sandboxes/${id}/exec`, { command: ["python", "-c", "print(1)"], timeoutSeconds: 10 });
  t.equal(exec.status, 200);
  t.same(exec.body, { output: "", error: EXEC_NOT_RUN, stdout: null, stderr: null, exitCode: null, durationMs: null, truncated: false });
  t.equal((await rest("POST", `/v2/sandboxes/${id}/exec`, { command: [] })).status, 400, "an empty argv");

  // logs: text/event-stream of {source, line, ts} with ids.
  const logs = await rest("GET", `/v2/sandboxes/${id}/logs`, undefined, { ...headers, accept: "text/event-stream" });
  t.equal(logs.status, 200);
  t.match(String(logs.headers["content-type"]), /^text\/event-stream/);
  const events = sseEvents(logs.text);
  t.match(events, [{ source: "system", line: /created/, id: "1" }, { source: "system", line: /started/, id: "2" }]);
  t.same(sseEvents((await rest("GET", `/v2/sandboxes/${id}/logs`, undefined, { ...headers, accept: "text/event-stream", "last-event-id": "1" })).text).map((e) => e.id), ["2"], "resumes after Last-Event-ID");

  // list(state=, labels=): filtered.
  t.same(((await rest("GET", "/v2/sandboxes?state=RUNNING&labels=team%3Dml")).body.sandboxes as { id: string }[]).map((s) => s.id), [id]);
  t.same((await rest("GET", "/v2/sandboxes?labels=team%3Dweb")).body.sandboxes, []);
  t.same((await rest("GET", "/v2/sandboxes", undefined, { ...headers, authorization: "Bearer cpsim_beta_full_91d4e6a2c7b3f058" })).body.sandboxes, [], "another account's are not listed");
  t.equal((await rest("GET", `/v2/sandboxes/${id}`, undefined, { ...headers, authorization: "Bearer cpsim_beta_full_91d4e6a2c7b3f058" })).status, 404);

  // update(idle_timeout_seconds=...) and extend(seconds=...): refresh, then the new total lifetime.
  t.match(await rest("PATCH", `/v2/sandboxes/${id}`, { idleTimeoutSeconds: 600 }), { status: 200, body: { idleTimeoutSeconds: 600 } });
  const extended = await rest("POST", `/v2/sandboxes/${id}/extend`, { maxLifetimeSeconds: 3600 + 1800 });
  t.equal(extended.status, 200);
  t.equal(Date.parse(extended.body.expiresAt) - Date.parse(extended.body.createdAt), 5400_000);
  t.equal((await rest("PATCH", `/v2/sandboxes/${id}`, {})).status, 400, "update needs a timeout");
  t.equal((await rest("PATCH", `/v2/sandboxes/${id}`, { idleTimeoutSeconds: 600 }, { ...headers, authorization: "Bearer cpsim_alpha_read_2c8e5b1f9a3d6047" })).status, 403, "a read-only key");

  // terminate: 204; the record stays, TERMINATED, without compute; exec then answers 409 sandbox_terminated.
  t.equal((await rest("DELETE", `/v2/sandboxes/${id}`)).status, 204);
  t.match((await rest("GET", `/v2/sandboxes/${id}`)).body, { state: "TERMINATED", compute: null, terminationReason: "terminated by request", terminatedAt: String });
  t.match(await rest("POST", `/v2/sandboxes/${id}/exec`, { command: ["true"] }), { status: 409, body: { code: "sandbox_terminated" } });
  t.match(sseEvents((await rest("GET", `/v2/sandboxes/${id}/logs`)).text).at(-1), { line: /terminated by request/ });

  // An idle sandbox ends at its idle timeout; exec counts as activity.
  const idle = await rest("POST", "/v2/sandboxes", { imageName: "alpine", idleTimeoutSeconds: 10 });
  await advance(8000);
  t.equal((await rest("POST", `/v2/sandboxes/${idle.body.id}/exec`, { command: ["true"] })).status, 200);
  await advance(8000);
  t.match((await rest("GET", `/v2/sandboxes/${idle.body.id}`)).body, { state: "RUNNING" }, "8 s after the exec");
  await advance(3000);
  t.match((await rest("GET", `/v2/sandboxes/${idle.body.id}`)).body, { state: "TERMINATED", terminationReason: "idle timeout reached" });

  // Refusals name what is wrong.
  t.equal((await rest("POST", "/v2/sandboxes", { imageName: "a", templateId: "b" })).status, 400, "image and template both");
  t.equal((await rest("POST", "/v2/sandboxes", { name: "x" })).status, 400, "neither image nor template");
  t.match(await rest("POST", "/v2/sandboxes", { imageName: "a", cpuFlavorId: "cpu3c", vcpuCount: 2, memoryInGb: 8 }), { status: 400, body: { detail: /4 GB of memory/ } });
  t.equal((await rest("POST", "/v2/sandboxes", { imageName: "a", cpuFlavorId: "nope" })).status, 400);
  t.equal((await rest("POST", "/v2/sandboxes", { imageName: "a", mounts: { network: [{ volumeId: "nope", path: "/data" }] } })).status, 400);
  t.equal((await rest("GET", "/v2/sandboxes/nope")).status, 404);
});
