"""
Every public function of the official Python client (runpod-python), called unmodified against one
base URL: the emulator's or `cpsim proxy`'s. Run by official-python.ts; not a test (npm test needs
neither Python nor the client).

Environment: CPSIM_PY_API_BASE (the client's RUNPOD_API_BASE_URL: REST and GraphQL),
CPSIM_PY_ENDPOINT_BASE (runpod.endpoint_url_base: the serverless URL plus /v2), CPSIM_PY_KEY (a
full-access key), CPSIM_PY_ENDPOINT (the conformance handler's endpoint id). The client is imported
from PYTHONPATH. Prints one JSON line per call: {"fn", "ok", "detail"}; a call that the client
should refuse (a bad key, an unknown GPU) is ok when it raises the client's own error.

Two dependencies of runpod-python have no Debian package and are only used by its serverless worker
(result upload and retries), which no call here reaches: tqdm_loggable and aiohttp_retry. When they
are missing, stand-ins that raise if used are put in sys.modules before `import runpod`; the line
{"standins": [...]} says which.
"""

import asyncio
import importlib.util
import json
import os
import sys
import tempfile
import time
import traceback
import types

PROBE = "--probe" in sys.argv[1:]
if not PROBE:
    API_BASE = os.environ["CPSIM_PY_API_BASE"]
    ENDPOINT_BASE = os.environ["CPSIM_PY_ENDPOINT_BASE"]
    KEY = os.environ["CPSIM_PY_KEY"]
    ENDPOINT = os.environ.get("CPSIM_PY_ENDPOINT", "conformance")
    os.environ["RUNPOD_API_BASE_URL"] = API_BASE
    os.environ["RUNPOD_ENDPOINT_BASE_URL"] = ENDPOINT_BASE
# The client reads ~/.runpod/config.toml at import and set_credentials writes it: a home of its own.
os.environ["HOME"] = tempfile.mkdtemp(prefix="cpsim-runpod-home-")


def _unavailable(name):
    class Unavailable:  # pylint: disable=too-few-public-methods
        def __init__(self, *args, **kwargs):
            raise RuntimeError(f"{name} is not installed (a stand-in of cpsim's official-python run)")

    return Unavailable


STANDINS = []
if importlib.util.find_spec("tqdm_loggable") is None and importlib.util.find_spec("tqdm") is not None:
    from tqdm.auto import tqdm as _tqdm  # Debian's tqdm: tqdm_loggable wraps it

    pkg = types.ModuleType("tqdm_loggable")
    auto = types.ModuleType("tqdm_loggable.auto")
    auto.tqdm = _tqdm
    pkg.auto = auto
    sys.modules["tqdm_loggable"] = pkg
    sys.modules["tqdm_loggable.auto"] = auto
    STANDINS.append("tqdm_loggable")
if importlib.util.find_spec("aiohttp_retry") is None:
    retry = types.ModuleType("aiohttp_retry")
    retry.FibonacciRetry = _unavailable("aiohttp_retry.FibonacciRetry")
    retry.RetryClient = _unavailable("aiohttp_retry.RetryClient")
    sys.modules["aiohttp_retry"] = retry
    STANDINS.append("aiohttp_retry")

try:
    import aiohttp  # noqa: E402  pylint: disable=wrong-import-position
    import requests  # noqa: E402  pylint: disable=wrong-import-position
    import runpod  # noqa: E402  pylint: disable=wrong-import-position
    from runpod import error as rp_error  # noqa: E402  pylint: disable=wrong-import-position
except ModuleNotFoundError as missing:
    print(json.dumps({"missing": missing.name}), flush=True)
    sys.exit(3)

print(json.dumps({"standins": STANDINS, "version": runpod.__version__, "file": os.path.dirname(runpod.__file__)}), flush=True)
if PROBE:
    sys.exit(0)

runpod.api_key = KEY
runpod.endpoint_url_base = ENDPOINT_BASE

RESULTS = {}


def short(value, limit=160):
    text = json.dumps(value, default=str)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def record(fn, ok, detail):
    RESULTS[fn] = ok
    print(json.dumps({"fn": fn, "ok": ok, "detail": detail}), flush=True)


def failed(fn, exc):
    """Records a call that raised."""
    record(fn, False, f"{type(exc).__name__}: {exc}"[:400])
    traceback.print_exc(file=sys.stderr)


def returned(fn, value, check):
    """Records a call that returned: ok when check(value) returns no complaint."""
    complaint = check(value)
    record(fn, complaint is None, complaint or short(value))
    return value


def call(fn, thunk, check=lambda v: None):
    """Calls thunk; ok when it returns and check(value) returns no complaint."""
    try:
        value = thunk()
    except Exception as exc:  # pylint: disable=broad-except
        failed(fn, exc)
        return None
    return returned(fn, value, check)


def refused(fn, thunk, errors, words=""):
    """A call the client must refuse: ok when it raises one of errors (with words in the message)."""
    try:
        value = thunk()
    except errors as exc:
        ok = words.lower() in str(exc).lower()
        record(fn, ok, f"refused as expected: {type(exc).__name__}: {exc}"[:400])
        return
    except Exception as exc:  # pylint: disable=broad-except
        record(fn, False, f"wrong error: {type(exc).__name__}: {exc}"[:400])
        return
    record(fn, False, f"not refused: {short(value)}")


def has(*keys):
    def check(value):
        if not isinstance(value, dict):
            return f"not an object: {short(value)}"
        missing = [k for k in keys if k not in value or value[k] is None]
        return f"missing {missing}: {short(value)}" if missing else None

    return check


def equals(expected):
    return lambda value: None if value == expected else f"expected {short(expected)}, got {short(value)}"


# ------------------------------- config functions ------------------------------ #
call("set_credentials", lambda: runpod.set_credentials(KEY, profile="default"))
call("get_credentials", lambda: runpod.get_credentials("default"), lambda v: None if v and v.get("api_key") == KEY else f"got {v}")
call("check_credentials", lambda: runpod.check_credentials("default"), lambda v: None if v and v[0] else f"got {v}")

# ---------------------------------- users, GPUs --------------------------------- #
user = call("get_user", runpod.get_user, has("id", "networkVolumes"))
call("get_user (api_key=)", lambda: runpod.get_user(api_key=KEY), has("id"))
refused("get_user (a wrong key)", lambda: runpod.get_user(api_key="not-a-key"), (rp_error.AuthenticationError,), "unauthorized")
call("update_user_settings", lambda: runpod.update_user_settings("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGcpsim user@host\nssh-rsa AAAAB3Nza second@host"), has("id", "pubKey"))
gpus = call("get_gpus", runpod.get_gpus, lambda v: None if isinstance(v, list) and v and all("id" in g for g in v) else f"got {short(v)}")
gpu_id = gpus[0]["id"] if gpus else "NVIDIA GeForce RTX 4090"
call("get_gpu", lambda: runpod.get_gpu(gpu_id), has("id", "displayName", "memoryInGb", "lowestPrice"))
call("get_gpu (gpu_quantity=2)", lambda: runpod.get_gpu(gpu_id, 2), has("id", "lowestPrice"))
refused("get_gpu (an unknown id)", lambda: runpod.get_gpu("NVIDIA No Such GPU"), (ValueError, rp_error.QueryError))

# ------------------------------------- pods ------------------------------------- #
pod = call("create_pod (GPU)", lambda: runpod.create_pod("cpsim-py-gpu", "runpod/pytorch:2.1.0-py3.10-cuda11.8.0-devel-ubuntu22.04", gpu_id), has("id", "imageName", "machineId"))
pod_id = pod["id"] if pod else "missing"
call("get_pods", runpod.get_pods, lambda v: None if isinstance(v, list) and any(p.get("id") == pod_id for p in v) else f"pod {pod_id} not listed: {short(v)}")
call("get_pod", lambda: runpod.get_pod(pod_id), lambda v: None if isinstance(v, dict) and v.get("id") == pod_id else f"got {short(v)}")
call("stop_pod", lambda: runpod.stop_pod(pod_id), lambda v: None if isinstance(v, dict) and v.get("desiredStatus") == "EXITED" else f"got {short(v)}")
call("resume_pod", lambda: runpod.resume_pod(pod_id, 1), lambda v: None if isinstance(v, dict) and v.get("desiredStatus") == "RUNNING" else f"got {short(v)}")
call("terminate_pod", lambda: runpod.terminate_pod(pod_id), equals(None))
refused("create_pod (neither image nor template)", lambda: runpod.create_pod("x"), (ValueError,))
cpu = call("create_pod (CPU)", lambda: runpod.create_pod("cpsim-py-cpu", "ubuntu:22.04"), has("id", "imageName"))
if cpu:
    call("terminate_pod (CPU)", lambda: runpod.terminate_pod(cpu["id"]), equals(None))
cpu2 = call("create_pod (CPU, instance_id=)", lambda: runpod.create_pod("cpsim-py-cpu-i", "ubuntu:22.04", instance_id="cpu3c-2-4"), has("id"))
if cpu2:
    call("terminate_pod (CPU, instance_id=)", lambda: runpod.terminate_pod(cpu2["id"]), equals(None))
full = call(
    "create_pod (GPU, every option)",
    lambda: runpod.create_pod(
        "cpsim-py-full", "ubuntu:22.04", gpu_id, cloud_type="SECURE", support_public_ip=False, data_center_id=None,
        country_code=None, gpu_count=1, volume_in_gb=20, container_disk_in_gb=15, min_vcpu_count=2, min_memory_in_gb=8,
        docker_args="sleep infinity", ports="8888/http, 22/tcp", volume_mount_path="/workspace",
        env={"A": "1", "B": "two words"}, allowed_cuda_versions=["12.4", "12.5"], min_download=10, min_upload=10,
    ),
    has("id", "env"),
)
if full:
    call("terminate_pod (every option)", lambda: runpod.terminate_pod(full["id"]), equals(None))
volumes = (user or {}).get("networkVolumes") or []
if volumes:
    vol = volumes[0]
    net = call("create_pod (network_volume_id=, its data center from get_user)", lambda: runpod.create_pod("cpsim-py-net", "ubuntu:22.04", gpu_id, network_volume_id=vol["id"]), has("id"))
    if net:
        call("terminate_pod (network volume)", lambda: runpod.terminate_pod(net["id"]), equals(None))

# -------------------------- registries, templates, endpoints -------------------------- #
suffix = int(time.time() * 1000)
reg = call("create_container_registry_auth", lambda: runpod.create_container_registry_auth(f"cpsim-py-reg-{suffix}", "user", "secret"), has("id", "name"))
reg_id = reg["id"] if reg else "missing"
call("update_container_registry_auth", lambda: runpod.update_container_registry_auth(reg_id, "user2", "secret2"), has("id"))
call("delete_container_registry_auth", lambda: runpod.delete_container_registry_auth(reg_id))
# A credential a template uses is kept: the template below gets one of its own.
tpl_reg = call("create_container_registry_auth (for a template)", lambda: runpod.create_container_registry_auth(f"cpsim-py-reg2-{suffix}", "user", "secret"), has("id"))
tpl = call(
    "create_template (serverless, registry_auth_id=)",
    lambda: runpod.create_template(f"cpsim-py-tpl-{suffix}", "ubuntu:22.04", docker_start_cmd='bash -c "sleep 1"', ports="8888/http", env={"K": "v"}, is_serverless=True, registry_auth_id=tpl_reg["id"] if tpl_reg else "missing"),
    has("id", "name", "imageName"),
)
tpl2 = call("create_template (defaults)", lambda: runpod.create_template(f"cpsim-py-tpl2-{suffix}", "ubuntu:22.04", volume_in_gb=5, volume_mount_path="/data"), has("id"))
pod_tpl = call("create_pod (template_id=)", lambda: runpod.create_pod("cpsim-py-tpl-pod", "", gpu_id, template_id=tpl2["id"] if tpl2 else "missing"), has("id"))
if pod_tpl:
    call("terminate_pod (template)", lambda: runpod.terminate_pod(pod_tpl["id"]), equals(None))
ep = call("create_endpoint", lambda: runpod.create_endpoint(f"cpsim-py-ep-{suffix}", tpl["id"] if tpl else "missing"), has("id", "name", "templateId"))
ep2 = call(
    "create_endpoint (every option)",
    lambda: runpod.create_endpoint(f"cpsim-py-ep2-{suffix}", tpl["id"] if tpl else "missing", gpu_ids="AMPERE_24,ADA_24", idle_timeout=10, scaler_type="REQUEST_COUNT", scaler_value=2, workers_min=0, workers_max=2, flashboot=True, allowed_cuda_versions="12.4", gpu_count=2),
    has("id", "flashBootType"),
)
call("get_endpoints", runpod.get_endpoints, lambda v: None if isinstance(v, list) and ep and any(e.get("id") == ep["id"] for e in v) else f"endpoint not listed: {short(v)}")
call("update_endpoint_template", lambda: runpod.update_endpoint_template(ep["id"] if ep else "missing", tpl2["id"] if tpl2 else "missing"), has("id", "templateId"))

# ------------------------------ Endpoint (requests) ------------------------------ #
endpoint = runpod.Endpoint(ENDPOINT)
job = call("Endpoint.run", lambda: endpoint.run({"op": "echo", "n": 1}), lambda j: None if j.job_id else "no job id")
if job:
    call("Job.status", job.status, lambda s: None if s in ("IN_QUEUE", "IN_PROGRESS", "COMPLETED") else f"got {s}")
    call("Job.output (timeout=30)", lambda: job.output(timeout=30), equals({"op": "echo", "n": 1}))
call("Endpoint.run_sync", lambda: endpoint.run_sync({"op": "echo", "n": 2}, timeout=60), equals({"op": "echo", "n": 2}))
call("Endpoint.run_sync ({input} given)", lambda: endpoint.run_sync({"input": {"op": "bytes", "n": 5}}, timeout=60), equals("abcde"))
streamed = call("Endpoint.run (a streaming job)", lambda: endpoint.run({"op": "stream", "chunks": 3, "bytes": 4}), lambda j: None if j.job_id else "no job id")
if streamed:
    call("Job.stream", lambda: list(streamed.stream()), lambda v: None if "".join(v if all(isinstance(x, str) for x in v) else []) == "abcd" * 3 else f"got {short(v)}")
failing = endpoint.run({"op": "fail", "message": "cpsim says no"})
call("Job.output, then Job.status (a FAILED job)", lambda: (failing.output(timeout=30), failing.status())[1], equals("FAILED"))
slow = call("Endpoint.run (a long job)", lambda: endpoint.run({"op": "sleep", "ms": 600000}), lambda j: None if j.job_id else "no job id")
if slow:
    call("Job.cancel", slow.cancel, lambda v: None if isinstance(v, dict) and v.get("status") == "CANCELLED" else f"got {short(v)}")
call("Endpoint.health", endpoint.health, has("jobs", "workers"))
queued = [endpoint.run({"op": "sleep", "ms": 600000}) for _ in range(2)]
call("Endpoint.purge_queue", endpoint.purge_queue, has("removed", "status"))
for q in queued:  # the one a worker had taken before the purge; a purged job is gone (404)
    try:
        q.cancel()
    except requests.HTTPError:
        pass
# The public model endpoints, addressed by their slug (the spec's rule 9).
flux = runpod.Endpoint("flux-1-schnell")
call("Endpoint.run_sync (public model flux-1-schnell)", lambda: flux.run_sync({"prompt": "a red square", "width": 64, "height": 64}, timeout=60), lambda v: None if isinstance(v, list) and v and str(v[0].get("image_url", "")).startswith(("data:image/", "http")) else f"no image_url: {short(v)}")
llama = call("Endpoint.run (public model llama-3.1-8b-instruct)", lambda: runpod.Endpoint("llama-3.1-8b-instruct").run({"prompt": "hello"}), lambda j: None if j.job_id else "no job id")
if llama:
    call("Job.stream (public model llama-3.1-8b-instruct)", lambda: list(llama.stream()), lambda v: None if v else "no chunks")
refused("Endpoint.run (a wrong key)", lambda: runpod.Endpoint(ENDPOINT, api_key="not-a-key").run({"op": "echo"}), (RuntimeError,), "401")


# --------------------------- AsyncioEndpoint (aiohttp) --------------------------- #
async def asyncio_calls():
    async with aiohttp.ClientSession() as session:
        aendpoint = runpod.AsyncioEndpoint(ENDPOINT, session)

        async def acall(fn, coro, check=lambda v: None):
            try:
                value = await coro
            except Exception as exc:  # pylint: disable=broad-except
                failed(fn, exc)
                return None
            return returned(fn, value, check)

        ajob = await acall("AsyncioEndpoint.run", aendpoint.run({"op": "echo", "n": 3}), lambda j: None if j.job_id else "no job id")
        if ajob:
            await acall("AsyncioJob.status", ajob.status(), lambda s: None if s in ("IN_QUEUE", "IN_PROGRESS", "COMPLETED") else f"got {s}")
            await acall("AsyncioJob.output (timeout=30)", ajob.output(timeout=30), equals({"op": "echo", "n": 3}))
        astream = await acall("AsyncioEndpoint.run (a streaming job)", aendpoint.run({"op": "stream", "chunks": 2, "bytes": 3}))

        async def collect(gen):
            return [x async for x in gen]

        if astream:
            await acall("AsyncioJob.stream", collect(astream.stream()), equals(["abc", "abc"]))
        along = await acall("AsyncioEndpoint.run (a long job)", aendpoint.run({"op": "sleep", "ms": 600000}))
        if along:
            await acall("AsyncioJob.cancel", along.cancel(), lambda v: None if isinstance(v, dict) and v.get("status") == "CANCELLED" else f"got {short(v)}")
        await acall("AsyncioEndpoint.health", aendpoint.health(), has("jobs", "workers"))
        await acall("AsyncioEndpoint.purge_queue", aendpoint.purge_queue(), has("removed", "status"))


asyncio.run(asyncio_calls())
print(json.dumps({"done": len(RESULTS), "ok": sum(1 for v in RESULTS.values() if v)}), flush=True)
