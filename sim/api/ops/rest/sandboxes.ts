/**
 * `/v2/sandboxes` as the newest Python client's `runpod.sandbox` calls it (runpod/api/sandboxes.py's
 * AsyncSandboxAPI): create, list (`state`, `labels=k=v`), get, PATCH and `extend` lifetimes, DELETE,
 * `exec` and the SSE `logs`. The records and lifecycle are the model's (SandboxStore). No
 * container runs, so `exec` never runs the command: a running sandbox answers 200 with an empty
 * `output`, an `error` that says so and a null `exitCode`, which the client returns as a failed
 * ExecResult (and raises with `check=True`), never as output a command printed. While a sandbox is
 * CREATING, `exec` and `logs` answer 409 `{"code": "sandbox_starting"}`, which the client retries
 * until it runs; once TERMINATED, 409 `sandbox_terminated`. Choices: docs/resources.md.
 */
import type { Micros } from "../../../core/index.ts";
import { ownRegistry, ownVolume, usableTemplate, type Done } from "../../../domain/resources/index.ts";
import { refuse } from "../../../domain/resources/commands.ts";
import { SANDBOX_LIMITS, type SandboxFields, type SandboxSnapshot } from "../../../domain/resources/sandboxes.ts";
import type { Platform } from "../../../domain/platform.ts";
import { json } from "../../json-response.ts";
import type { Operation, OpContext } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond, type ApiResponse } from "../../types.ts";
import { eventStream } from "./logs.ts";
import { answer, body } from "./resource-writes.ts";
import type { CreateSandboxRequest, ExecSandboxRequest, ExtendSandboxRequest, UpdateSandboxRequest } from "./sandbox-schemas.ts";

/** What the command's result says, deterministic: the emulator runs no container. */
export const EXEC_NOT_RUN = "The command was not run: the cpsim emulator runs no container, so a sandbox cannot execute commands (its lifecycle, lifetimes and logs are served).";

const id = (ctx: OpContext) => ctx.params.id ?? "";

export function sandboxView(s: SandboxSnapshot) {
  return {
    id: s.id,
    name: s.name,
    state: s.state,
    idleTimeoutSeconds: s.idleTimeoutSeconds,
    maxLifetimeSeconds: s.maxLifetimeSeconds,
    lastActivityAt: s.lastActivityAt,
    idleExpiresAt: s.idleExpiresAt,
    expiresAt: s.expiresAt,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    startedAt: s.startedAt,
    terminatedAt: s.terminatedAt,
    terminationReason: s.terminationReason,
    templateId: s.templateId,
    imageName: s.imageName,
    cpuFlavorId: s.cpuFlavorId,
    dataCenterId: s.dataCenterId,
    compute: s.state === "TERMINATED" ? null : { vcpuCount: s.vcpuCount, memoryInGb: s.memoryInGb, containerDiskInGb: s.disk, costPerHr: s.costPerHr },
    env: s.env,
    labels: s.labels,
    registry: s.registry,
    ports: s.ports,
    mounts: s.mounts,
    cmd: s.cmd,
    entrypoint: s.entrypoint,
    ssh: null,
  };
}

/** The body in the model's terms: defaults filled, references checked (template, flavor and size, data center, volume, registry). */
function sandboxFields(platform: Platform, accountId: string, b: CreateSandboxRequest): Done<SandboxFields> {
  const bad = (m: string) => refuse("invalid", m);
  if (b.templateId !== undefined && usableTemplate(platform, accountId, b.templateId) === undefined) return bad(`templateId ${JSON.stringify(b.templateId)} names no template you can use; list them with GET /v2/templates`);
  const flavors = platform.catalog.cpuFlavors;
  const flavor = b.cpuFlavorId === undefined ? flavors[0] : flavors.find((f) => f.id === b.cpuFlavorId);
  if (flavor === undefined) return bad(`cpuFlavorId ${JSON.stringify(b.cpuFlavorId)} is unknown; use one of ${flavors.map((f) => f.id).join(", ")}`);
  const vcpuCount = b.vcpuCount ?? flavor.vcpuCounts[0]!;
  if (!flavor.vcpuCounts.includes(vcpuCount)) return bad(`CPU flavor ${flavor.id} has no ${vcpuCount}-vCPU size; use one of ${flavor.vcpuCounts.join(", ")}`);
  const memoryInGb = vcpuCount * flavor.ramGbPerVcpu;
  if (b.memoryInGb !== undefined && b.memoryInGb !== memoryInGb) return bad(`${flavor.id} with ${vcpuCount} vCPUs has ${memoryInGb} GB of memory, not ${b.memoryInGb}; leave memoryInGb out or send ${memoryInGb}`);
  let places = b.dataCenterIds ?? flavor.dataCenterIds;
  const unknown = places.find((d) => !flavor.dataCenterIds.includes(d));
  if (unknown !== undefined) return bad(`CPU flavor ${flavor.id} is not offered in ${JSON.stringify(unknown)}; it is in ${flavor.dataCenterIds.join(", ")}`);
  for (const m of b.mounts?.network ?? []) {
    const v = ownVolume(platform, accountId, m.volumeId);
    if (v === undefined) return bad(`network volume ${JSON.stringify(m.volumeId)} is not one of yours; list them with GET /v2/network-volumes`);
    if (!places.includes(v.dataCenterId)) return bad(`network volume ${v.id} is in ${v.dataCenterId}, outside the sandbox's data centers ${places.join(", ")}`);
    places = [v.dataCenterId];
  }
  if (b.registry !== undefined && ownRegistry(platform, accountId, b.registry) === undefined) return bad(`registry ${JSON.stringify(b.registry)} is not one of your registry credentials; list them with GET /v2/registries`);
  return {
    ok: true,
    value: {
      name: b.name ?? "sandbox",
      imageName: b.imageName ?? null,
      templateId: b.templateId ?? null,
      cpuFlavorId: flavor.id,
      vcpuCount,
      memoryInGb,
      disk: b.disk ?? 10,
      costPerHr: Math.round(vcpuCount * flavor.pricePerVcpuHour * 1e6) / 1e6,
      dataCenterId: places[0]!,
      env: b.env ?? null,
      registry: b.registry ?? null,
      ports: b.ports ?? null,
      mounts: b.mounts ?? null,
      cmd: b.cmd ?? null,
      entrypoint: b.entrypoint ?? null,
      labels: b.labels ?? null,
      idleTimeoutSeconds: b.idleTimeoutSeconds ?? SANDBOX_LIMITS.idleTimeoutSeconds.default,
      maxLifetimeSeconds: b.maxLifetimeSeconds ?? SANDBOX_LIMITS.maxLifetimeSeconds.default,
    },
  };
}

export const createSandbox: Operation = (ctx) => {
  const b = body<CreateSandboxRequest>(ctx, "CreateSandboxRequest", '{"imageName": "python:3.11-slim"} (or "templateId")');
  if (!b.ok) return b.response;
  const f = sandboxFields(ctx.platform, ctx.principal.accountId, b.value);
  if (!f.ok) return answer(f, 201, () => undefined);
  return answer(ctx.platform.resources.sandboxes.create(ctx.principal.accountId, f.value, ctx.now), 201, sandboxView);
};

/** `labels` comes as `k=v` (the client sends one parameter per label; the last one read is kept). */
export const listSandboxes: Operation = ({ platform, principal, request, now }) => {
  const { state, labels } = request.query;
  if (state !== undefined && !["CREATING", "RUNNING", "TERMINATED", "FAILED"].includes(state)) return respond(problem(400, `state ${JSON.stringify(state)} must be CREATING, RUNNING, TERMINATED or FAILED.`));
  let filter: Record<string, string> | undefined;
  if (labels !== undefined) {
    const eq = labels.indexOf("=");
    if (eq <= 0) return respond(problem(400, `labels ${JSON.stringify(labels)} must be key=value.`));
    filter = { [labels.slice(0, eq)]: labels.slice(eq + 1) };
  }
  const list = platform.resources.sandboxes.list(principal.accountId, now, { ...(state !== undefined ? { state } : {}), ...(filter ? { labels: filter } : {}) });
  return respond(json(200, { sandboxes: list.map(sandboxView) }));
};

export const getSandbox: Operation = (ctx) => answer(ctx.platform.resources.sandboxes.get(ctx.principal.accountId, id(ctx), ctx.now), 200, sandboxView);

export const updateSandbox: Operation = (ctx) => {
  const b = body<UpdateSandboxRequest>(ctx, "UpdateSandboxRequest", '{"idleTimeoutSeconds": 600} or {"maxLifetimeSeconds": 7200}');
  if (!b.ok) return b.response;
  return answer(ctx.platform.resources.sandboxes.update(ctx.principal.accountId, id(ctx), b.value, ctx.now), 200, sandboxView);
};

/** The client sends the new total lifetime (its current one plus the seconds to add). */
export const extendSandbox: Operation = (ctx) => {
  const b = body<ExtendSandboxRequest>(ctx, "ExtendSandboxRequest", '{"maxLifetimeSeconds": 7200}');
  if (!b.ok) return b.response;
  return answer(ctx.platform.resources.sandboxes.update(ctx.principal.accountId, id(ctx), { maxLifetimeSeconds: b.value.maxLifetimeSeconds }, ctx.now), 200, sandboxView);
};

export const deleteSandbox: Operation = (ctx) => answer(ctx.platform.resources.sandboxes.terminate(ctx.principal.accountId, id(ctx), ctx.now), 204, () => undefined);

/** The 409 the client reads `code` from: `sandbox_starting` is retried until it runs. */
function notRunning(s: SandboxSnapshot): ApiResponse {
  const starting = s.state === "CREATING";
  const detail = starting ? `Sandbox ${s.id} is still starting; try again shortly.` : `Sandbox ${s.id} is TERMINATED (${s.terminationReason}).`;
  const p = problem(409, detail);
  return { ...p, body: { ...(p.body as object), code: starting ? "sandbox_starting" : "sandbox_terminated" } };
}

/** The sandbox, counted as used, when it runs; else its 404 or 409. */
function running(ctx: OpContext, now: Micros): { ok: true; sandbox: SandboxSnapshot } | { ok: false; response: ApiResponse } {
  const got = ctx.platform.resources.sandboxes.touch(ctx.principal.accountId, id(ctx), now);
  if (!got.ok) return { ok: false, response: problem(404, `${got.message.charAt(0).toUpperCase()}${got.message.slice(1)}.`) };
  return got.value.state === "RUNNING" ? { ok: true, sandbox: got.value } : { ok: false, response: notRunning(got.value) };
}

export const execSandbox: Operation = (ctx) => {
  const b = body<ExecSandboxRequest>(ctx, "ExecSandboxRequest", '{"command": ["echo", "hi"]}');
  if (!b.ok) return b.response;
  const r = running(ctx, ctx.now);
  if (!r.ok) return respond(r.response);
  return respond(json(200, { output: "", error: EXEC_NOT_RUN, stdout: null, stderr: null, exitCode: null, durationMs: null, truncated: false }));
};

/** `system` lines of what happened to it; no `container` lines (nothing runs). */
export const sandboxLogs: Operation = (ctx) => {
  const got = ctx.platform.resources.sandboxes.get(ctx.principal.accountId, id(ctx), ctx.now);
  if (!got.ok) return respond(problem(404, `${got.message.charAt(0).toUpperCase()}${got.message.slice(1)}.`));
  if (got.value.state === "CREATING") return respond(notRunning(got.value));
  if (got.value.state === "RUNNING") ctx.platform.resources.sandboxes.touch(ctx.principal.accountId, id(ctx), ctx.now);
  return respond(eventStream(ctx, got.value.events.map((e) => ({ ts: e.ts, source: "system" as const, line: e.line }))));
};
