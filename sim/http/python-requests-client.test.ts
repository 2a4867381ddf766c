// The REST-era Python client's transport with the real `requests` library (when python3 has it):
// a script calls the emulator the way runpod/api/rest.py (run_rest_request, read_event_stream),
// runpod/api/graphql.py (run_graphql_query) and runpod/endpoint/runner.py (run, run_sync with its
// polling fallback, status, cancel, health, purge_queue) do, with the same
// arguments (headers, json=, params=, data=json.dumps(...), stream=True and iter_content), and
// prints what it read; the test checks those answers. Skipped, saying so, without python3+requests.
import t from "tap";
import { pythonEndpointMutation, pythonTemplateMutation, pythonUserQuery } from "../api/graphql/index.ts";
import { startEmulator } from "./index.ts";
import { pythonHas, runPython } from "./test-helpers.ts";

const KEY = "cpsim_alpha_full_7f3a9c2e41b6d805";
const requests = pythonHas("requests");

// Only requests calls with the clients' arguments: no code of the clients.
const SCRIPT = String.raw`
import json, sys, time, requests
base, serverless, key, user_query, template_mutation, endpoint_mutation = sys.argv[1:7]
headers = {"Accept": "application/json", "Content-Type": "application/json", "User-Agent": "RunPod-Python-SDK/test", "Authorization": f"Bearer {key}"}
def rest(method, path, params=None, json_body=None):
    r = requests.request(method, f"{base.rstrip('/')}/{path.lstrip('/')}", headers=headers, params=params, json=json_body, timeout=30)
    return {"status": r.status_code, "body": (r.json() if r.content else None)}
def events(path, params=None, last_event_id=None):
    h = dict(headers); h["Accept"] = "text/event-stream"
    if last_event_id is not None: h["Last-Event-ID"] = last_event_id
    out, buffer, event, data = [], b"", {}, []
    with requests.get(f"{base.rstrip('/')}/{path.lstrip('/')}", headers=h, params=params, stream=True, timeout=(30, 5)) as r:
        for chunk in r.iter_content(chunk_size=None):
            buffer += chunk
            *lines, buffer = buffer.replace(b"\r\n", b"\n").split(b"\n")
            for raw in lines:
                line = raw.decode("utf-8")
                if not line:
                    if data:
                        event["data"] = "\n".join(data); out.append(event)
                    event, data = {}, []
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "data": data.append(value)
                elif field in ("id", "event"): event[field] = value
        return {"status": r.status_code, "type": r.headers.get("Content-Type"), "events": out}
def graphql(query):
    r = requests.post(f"{base}/graphql", headers={"Content-Type": "application/json", "User-Agent": "RunPod-Python-SDK/test", "Authorization": f"Bearer {key}"}, data=json.dumps({"query": query}), timeout=30)
    return r.json()
res = {}
res["put_keys"] = rest("PUT", "/v2/account/ssh-keys", json_body={"keys": ["ssh-ed25519 AAAA py@host"]})
res["get_user"] = graphql(user_query)
# create_template, then create_endpoint(..., allowed_cuda_versions="12.4,12.6"): run_graphql_query of generate_endpoint_mutation.
gql_tpl = graphql(template_mutation)
res["create_endpoint"] = graphql(endpoint_mutation.replace("TEMPLATE_ID", gql_tpl["data"]["saveTemplate"]["id"])) if "data" in gql_tpl and gql_tpl["data"] else gql_tpl
res["get_gpu"] = rest("GET", "/v2/catalog/gpus/" + requests.utils.quote("NVIDIA GeForce RTX 4090", safe=""), params={"include": "AVAILABILITY", "product": "POD", "count": 1})
tpl = rest("POST", "/v2/templates", json_body={"name": "req-worker", "image": "me/worker:1", "disk": 10, "serverless": True, "env": {"A": "1"}})
res["template"] = tpl
pod = rest("POST", "/v2/pods", json_body={"name": "req-pod", "startSsh": True, "image": "ubuntu:22.04", "disk": 10, "gpu": {"id": "NVIDIA GeForce RTX 4090", "count": 1}})
res["pod"] = pod
if pod["status"] != 201: print(json.dumps(res)); sys.exit(3)
for _ in range(300):
    if rest("GET", f"/v2/pods/{pod['body']['id']}")["body"]["status"] == "RUNNING": break
    time.sleep(0.01)
time.sleep(0.2)
res["logs"] = events(f"/v2/pods/{pod['body']['id']}/logs", params={"tail": 100})
res["logs_after_1"] = events(f"/v2/pods/{pod['body']['id']}/logs", last_event_id="1")
ep = rest("POST", "/v2/serverless", json_body={"name": "req-ep", "templateId": tpl["body"]["id"], "type": "QUEUE", "gpu": {"pools": ["AMPERE_16"], "count": 1}, "workers": {"min": 0, "max": 3, "idleTimeout": 5}, "scaling": {"type": "QUEUE_DELAY", "queueDelay": 4}, "flashboot": "OFF"})
res["endpoint"] = ep
# runpod/endpoint/runner.py: a requests session, Content-Type and Bearer, json=payload.
s = requests.Session(); s.headers.update({"Content-Type": "application/json", "Authorization": f"Bearer {key}"})
job = s.post(f"{serverless}/v2/{ep['body']['id']}/run", json={"input": {"op": "echo", "n": 5}}, timeout=10).json()
state = {}
for _ in range(2400):
    state = s.get(f"{serverless}/v2/{ep['body']['id']}/status/{job['id']}", timeout=10).json()
    if state["status"] in ("COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"): break
    time.sleep(0.05)
res["job"] = state
# Endpoint.run_sync: POST runsync; if the answer is not final, Job.output polls status.
first = s.post(f"{serverless}/v2/{ep['body']['id']}/runsync", json={"input": {"op": "sleep", "ms": 200000}}, timeout=30).json()
res["runsync_first"] = first
final = first
for _ in range(2400):
    if final["status"] in ("COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"): break
    time.sleep(0.05)
    final = s.get(f"{serverless}/v2/{ep['body']['id']}/status/{first['id']}", timeout=10).json()
res["runsync_final"] = final
# Job.cancel and Endpoint.purge_queue post data=None (no body); health with timeout=3.
long = s.post(f"{serverless}/v2/{ep['body']['id']}/run", json={"input": {"op": "sleep", "ms": 600000}}, timeout=10).json()
res["cancel"] = s.request("POST", f"{serverless}/v2/{ep['body']['id']}/cancel/{long['id']}", json=None, timeout=3).json()
res["purge"] = s.request("POST", f"{serverless}/v2/{ep['body']['id']}/purge-queue", json=None, timeout=3).json()
res["health"] = s.get(f"{serverless}/v2/{ep['body']['id']}/health", timeout=3).json()
res["workers"] = rest("GET", f"/v2/serverless/{ep['body']['id']}/workers")
res["delete_pod"] = rest("DELETE", f"/v2/pods/{pod['body']['id']}")
res["missing_pod"] = rest("GET", "/v2/pods/nope")
print(json.dumps(res))
`;

t.test("rest.py, graphql.py and runner.py's requests against the emulator", { skip: requests.ok ? false : `python3 with requests is not available here (${requests.why})` }, async (t) => {
  // 20× the wall clock: the 600 s job lasts 30 s of wall time, so its cancel finds it running on a
  // busy machine too (at 1000× it could finish first); the polls above wait up to 2 minutes.
  const emulator = await startEmulator({ clock: "real", speed: 20, seed: 1, logger: false });
  t.teardown(() => emulator.close());
  const endpointMutation = pythonEndpointMutation({ name: "py-cuda", templateId: "TEMPLATE_ID", allowedCudaVersions: "12.4,12.6" });
  const templateMutation = pythonTemplateMutation({ name: "py-cuda-tpl", imageName: "me/worker:1", isServerless: true });
  const run = await runPython(SCRIPT, [emulator.baseUrl, emulator.serverlessUrl, KEY, pythonUserQuery, templateMutation, endpointMutation]);
  t.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as Record<string, any>;
  t.same(r.put_keys, { status: 200, body: { keys: ["ssh-ed25519 AAAA py@host"] } });
  t.equal(r.get_user.data.myself.pubKey, "ssh-ed25519 AAAA py@host", "update_user_settings, then get_user");
  t.notOk(r.create_endpoint.errors, "create_endpoint's selection (allowedCudaVersions, gpuCount, flashBootType) is answered");
  t.match(r.create_endpoint.data?.saveEndpoint, { id: /^[a-z0-9]{14}$/, name: "py-cuda", gpuIds: "AMPERE_16", allowedCudaVersions: "12.4,12.6", gpuCount: 1, flashBootType: "OFF" });
  t.match(r.get_gpu, { status: 200, body: { id: "NVIDIA GeForce RTX 4090" } });
  t.equal(r.template.status, 201);
  t.equal(r.pod.status, 201);
  t.equal(r.logs.status, 200);
  t.equal(r.logs.type, "text/event-stream");
  t.match(r.logs.events[0], { id: "1", data: /"source":"system"/ });
  t.same(r.logs_after_1.events, r.logs.events.slice(1), "resumed after Last-Event-ID");
  t.equal(r.endpoint.status, 201);
  t.match(r.job, { status: "COMPLETED", output: { op: "echo", n: 5 } });
  t.match(r.runsync_first, { id: String, status: /^(IN_QUEUE|IN_PROGRESS)$/ }, "runsync's wait ran out first");
  t.match(r.runsync_final, { id: r.runsync_first.id, status: "COMPLETED", output: Object }, "run_sync's polling fallback");
  t.match(r.cancel, { status: "CANCELLED" });
  t.match(r.purge, { removed: Number, status: String });
  t.match(r.health, { jobs: { completed: Number }, workers: Object });
  t.match(r.workers, { status: 200, body: { workers: Array } });
  t.same(r.delete_pod, { status: 204, body: null });
  t.match(r.missing_pod, { status: 404, body: { detail: String } }, "_raise_for_error reads detail");
});
