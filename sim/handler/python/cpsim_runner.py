"""Runs one Python job handler for cpsim, one job at a time, over JSON lines (no dependencies).

Started as ``python3 -u cpsim_runner.py HANDLER_FILE [FUNCTION]`` (FUNCTION defaults to ``handler``). The protocol (also in sim/handler/README.md):

cpsim -> runner, on stdin, one JSON object per line:
    {"type": "job", "id": "...", "input": ...}

runner -> cpsim, on the original stdout, one JSON object per line:
    {"type": "ready", "generator": bool}        the module loaded and defines handler(job)
    {"type": "fatal", "error": "..."}           it did not; the runner exits with code 3
    {"type": "chunk", "id": "...", "output": x} one output of a generator handler
    {"type": "result", "id": "...", "output": x} the job's result (a generator's: the list of its outputs)
    {"type": "error", "id": "...", "error": "...", "traceback": "..."} the handler raised

Anything the handler prints goes to stderr, so it can never break the protocol. cpsim stops a job
(cancel, timeout) by killing the process and starting a new one.
"""

import asyncio
import importlib.util
import inspect
import json
import os
import sys
import traceback

_PROTOCOL = sys.stdout
# The handler's own prints must not reach the protocol stream.
sys.stdout = sys.stderr


def _send(message):
    try:
        line = json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    except (TypeError, ValueError) as err:
        kind = message.get("type")
        if kind in ("chunk", "result"):
            line = json.dumps(
                {"type": "error", "id": message.get("id"), "error": f"the handler's output is not JSON: {err}", "traceback": ""},
                separators=(",", ":"),
            )
        else:
            raise
    _PROTOCOL.write(line + "\n")
    _PROTOCOL.flush()


def _load(path, name):
    if not os.path.isfile(path):
        raise RuntimeError(f"{path}: no such file")
    directory = os.path.dirname(os.path.abspath(path))
    # Imports beside the handler work as they do when it runs as a script.
    if directory not in sys.path:
        sys.path.insert(0, directory)
    spec = importlib.util.spec_from_file_location("__cpsim_handler__", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"{path}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    fn = getattr(module, name, None)
    if fn is None:
        raise RuntimeError(f"{path}: defines no function named {name}(job)")
    if not callable(fn):
        raise RuntimeError(f"{path}: {name} is not a function")
    return fn


def _run(fn, job):
    job_id = job.get("id")
    value = fn({"id": job_id, "input": job.get("input")})
    if inspect.isawaitable(value):
        value = asyncio.run(_await(value))
    if inspect.isgenerator(value):
        outputs = []
        for out in value:
            outputs.append(out)
            _send({"type": "chunk", "id": job_id, "output": out})
        value = outputs
    elif inspect.isasyncgen(value):
        value = asyncio.run(_drain_async(value, job_id))
    _send({"type": "result", "id": job_id, "output": value})


async def _await(awaitable):
    return await awaitable


async def _drain_async(agen, job_id):
    outputs = []
    async for out in agen:
        outputs.append(out)
        _send({"type": "chunk", "id": job_id, "output": out})
    return outputs


def main():
    if len(sys.argv) not in (2, 3):
        _send({"type": "fatal", "error": "usage: cpsim_runner.py HANDLER_FILE [FUNCTION]"})
        sys.exit(3)
    path = sys.argv[1]
    try:
        fn = _load(path, sys.argv[2] if len(sys.argv) == 3 else "handler")
    except BaseException as err:  # pylint: disable=broad-except
        if isinstance(err, SyntaxError):
            detail = f"SyntaxError: {err.msg} (line {err.lineno})"
        elif isinstance(err, RuntimeError) and str(err).startswith(path):
            detail = str(err)
        else:
            detail = f"{type(err).__name__}: {err}"
        _send({"type": "fatal", "error": detail if detail.startswith(path) else f"{path}: {detail}"})
        sys.exit(3)
    generator = inspect.isgeneratorfunction(fn) or inspect.isasyncgenfunction(fn)
    _send({"type": "ready", "generator": generator})
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        job = json.loads(line)
        try:
            _run(fn, job)
        except Exception as err:  # pylint: disable=broad-except
            _send({"type": "error", "id": job.get("id"), "error": str(err) or type(err).__name__, "traceback": traceback.format_exc()})


if __name__ == "__main__":
    main()
