/**
 * CPU sandboxes (the newest Python client's `runpod.sandbox`, REST `/v2/sandboxes`): records with
 * the platform's lifecycle, kept per account. A sandbox is `CREATING` for SANDBOX_START_US of
 * model time, then `RUNNING` until it is deleted, sits idle past its idle timeout, or reaches its
 * maximum lifetime (then `TERMINATED`, with the reason and time); its record stays readable.
 * The state is derived from the clock when read, so no engine event is scheduled and the event
 * log is unchanged. No container runs: a sandbox's compute is recorded and priced, not placed on
 * a host (it takes no CPU stock), and a command is never executed (docs/resources.md, the choices table).
 */
import type { Rng } from "../../core/index.ts";
import { isoFromMicros } from "../iso-time.ts";
import { shortId, uniqueId } from "../ids.ts";
import { done, notYours, refuse, type Done } from "./commands.ts";

export type SandboxState = "CREATING" | "RUNNING" | "TERMINATED";

export interface SandboxFields {
  readonly name: string;
  readonly imageName: string | null;
  readonly templateId: string | null;
  readonly cpuFlavorId: string;
  readonly vcpuCount: number;
  readonly memoryInGb: number;
  readonly disk: number;
  readonly costPerHr: number;
  readonly dataCenterId: string;
  readonly env: Readonly<Record<string, string>> | null;
  readonly registry: string | null;
  readonly ports: readonly { readonly port: number; readonly protocol: string }[] | null;
  readonly mounts: Readonly<Record<string, readonly { readonly volumeId: string; readonly path: string }[]>> | null;
  readonly cmd: readonly string[] | null;
  readonly entrypoint: readonly string[] | null;
  readonly labels: Readonly<Record<string, string>> | null;
  readonly idleTimeoutSeconds: number;
  readonly maxLifetimeSeconds: number;
}

interface SandboxRecord extends SandboxFields {
  readonly id: string;
  readonly accountId: string;
  readonly createdAtUs: number;
  updatedAtUs: number;
  lastActivityUs: number;
  idleTimeoutSeconds: number;
  maxLifetimeSeconds: number;
  /** Set by a delete; an expiry is derived instead (see `ended`). */
  deletedAtUs: number | null;
}

/** A sandbox as read at one instant. */
export interface SandboxSnapshot extends SandboxFields {
  readonly id: string;
  readonly state: SandboxState;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly startedAt: string | null;
  readonly lastActivityAt: string;
  readonly idleExpiresAt: string;
  readonly expiresAt: string;
  readonly terminatedAt: string | null;
  readonly terminationReason: string | null;
  /** Model-time lines of what happened to it (created, started, terminated), for its log stream. */
  readonly events: readonly { readonly ts: string; readonly line: string }[];
}

/** How long a sandbox takes to start: the emulator's stand-in for pulling and starting a container. */
export const SANDBOX_START_US = 2 * 1_000_000;
export const SANDBOX_LIMITS = Object.freeze({ live: 20, records: 200, idleTimeoutSeconds: { min: 10, max: 86_400, default: 300 }, maxLifetimeSeconds: { min: 60, max: 86_400, default: 3600 } });
const US = 1_000_000;

export class SandboxStore {
  private readonly records = new Map<string, SandboxRecord>();

  constructor(private readonly ids: Rng) {}

  /** When and why it ended, or undefined while it lives. */
  private ended(r: SandboxRecord, now: number): { at: number; reason: string } | undefined {
    const candidates: { at: number; reason: string }[] = [
      { at: r.createdAtUs + r.maxLifetimeSeconds * US, reason: "max lifetime reached" },
      { at: r.lastActivityUs + r.idleTimeoutSeconds * US, reason: "idle timeout reached" },
    ];
    if (r.deletedAtUs !== null) candidates.push({ at: r.deletedAtUs, reason: "terminated by request" });
    const first = candidates.filter((c) => c.at <= now).sort((a, b) => a.at - b.at)[0];
    return first;
  }

  private snapshot(r: SandboxRecord, now: number): SandboxSnapshot {
    const end = this.ended(r, now);
    const startsAt = r.createdAtUs + SANDBOX_START_US;
    const state: SandboxState = end !== undefined ? "TERMINATED" : now < startsAt ? "CREATING" : "RUNNING";
    const started = startsAt <= (end?.at ?? now);
    const at = (t: number) => isoFromMicros(t);
    const events = [{ ts: at(r.createdAtUs), line: `Sandbox ${r.id} created: ${r.vcpuCount} vCPUs (${r.cpuFlavorId}), ${r.memoryInGb} GB in ${r.dataCenterId}; image ${r.imageName ?? `of template ${r.templateId}`}` }];
    if (started) events.push({ ts: at(startsAt), line: "Sandbox started (no container runs in the emulator)" });
    if (end !== undefined) events.push({ ts: at(end.at), line: `Sandbox terminated: ${end.reason}` });
    const { id, accountId: _a, createdAtUs, updatedAtUs, lastActivityUs, deletedAtUs: _d, ...fields } = r;
    return {
      ...fields,
      id,
      state,
      createdAt: at(createdAtUs),
      updatedAt: at(updatedAtUs),
      startedAt: started ? at(startsAt) : null,
      lastActivityAt: at(lastActivityUs),
      idleExpiresAt: at(lastActivityUs + r.idleTimeoutSeconds * US),
      expiresAt: at(createdAtUs + r.maxLifetimeSeconds * US),
      terminatedAt: end === undefined ? null : at(end.at),
      terminationReason: end?.reason ?? null,
      events,
    };
  }

  private own(accountId: string, id: string): SandboxRecord | undefined {
    const r = this.records.get(id);
    return r !== undefined && r.accountId === accountId ? r : undefined;
  }

  private notFound(id: string) {
    return notYours("sandbox", id, "/v2/sandboxes");
  }

  create(accountId: string, f: SandboxFields, now: number): Done<SandboxSnapshot> {
    const mine = [...this.records.values()].filter((r) => r.accountId === accountId);
    if (mine.filter((r) => this.ended(r, now) === undefined).length >= SANDBOX_LIMITS.live) return refuse("limit", `you have ${SANDBOX_LIMITS.live} live sandboxes, the limit; terminate one first`);
    // Ended records stay readable, the oldest dropped once an account holds the most records.
    if (mine.length >= SANDBOX_LIMITS.records) {
      const oldest = mine.find((r) => this.ended(r, now) !== undefined);
      if (oldest !== undefined) this.records.delete(oldest.id);
    }
    const id = uniqueId(() => shortId(this.ids, 14), (x) => this.records.has(x));
    const r: SandboxRecord = { ...f, id, accountId, createdAtUs: now, updatedAtUs: now, lastActivityUs: now, deletedAtUs: null };
    this.records.set(id, r);
    return done(this.snapshot(r, now));
  }

  list(accountId: string, now: number, filter: { state?: string; labels?: Readonly<Record<string, string>> }): SandboxSnapshot[] {
    return [...this.records.values()]
      .filter((r) => r.accountId === accountId)
      .map((r) => this.snapshot(r, now))
      .filter((s) => filter.state === undefined || s.state === filter.state)
      .filter((s) => Object.entries(filter.labels ?? {}).every(([k, v]) => s.labels?.[k] === v));
  }

  get(accountId: string, id: string, now: number): Done<SandboxSnapshot> {
    const r = this.own(accountId, id);
    return r === undefined ? this.notFound(id) : done(this.snapshot(r, now));
  }

  /** New idle timeout and/or maximum lifetime (absolute seconds from creation); a terminated sandbox is past changing (409). */
  update(accountId: string, id: string, patch: { idleTimeoutSeconds?: number; maxLifetimeSeconds?: number }, now: number): Done<SandboxSnapshot> {
    const r = this.own(accountId, id);
    if (r === undefined) return this.notFound(id);
    if (this.ended(r, now) !== undefined) return refuse("conflict", `sandbox ${id} is TERMINATED; its lifetime can no longer change`);
    const lifetime = patch.maxLifetimeSeconds;
    if (lifetime !== undefined && r.createdAtUs + lifetime * US <= now) return refuse("invalid", `maxLifetimeSeconds ${lifetime} ends before now (the sandbox is ${Math.floor((now - r.createdAtUs) / US)} s old); send a longer lifetime`);
    if (patch.idleTimeoutSeconds !== undefined) r.idleTimeoutSeconds = patch.idleTimeoutSeconds;
    if (lifetime !== undefined) r.maxLifetimeSeconds = lifetime;
    r.updatedAtUs = now;
    return done(this.snapshot(r, now));
  }

  /** Terminates it (idempotent: a terminated sandbox stays as it ended). */
  terminate(accountId: string, id: string, now: number): Done<SandboxSnapshot> {
    const r = this.own(accountId, id);
    if (r === undefined) return this.notFound(id);
    if (this.ended(r, now) === undefined) {
      r.deletedAtUs = now;
      r.updatedAtUs = now;
    }
    return done(this.snapshot(r, now));
  }

  /** A request that uses the running sandbox (exec, logs) counts as activity: its idle timeout starts again. */
  touch(accountId: string, id: string, now: number): Done<SandboxSnapshot> {
    const r = this.own(accountId, id);
    if (r === undefined) return this.notFound(id);
    const s = this.snapshot(r, now);
    if (s.state === "RUNNING") r.lastActivityUs = now;
    return done(s);
  }
}
