/**
 * Global volumes ("global store buckets"): storage not tied to a data center, which the newest
 * official Python client lists and creates (`list_global_volumes`, `create_global_volume`) when
 * an app or sandbox mounts one. Only records, per account: nothing mounts them in the model (no
 * container runs), so the event log is unchanged. Ids come from their own seeded stream.
 *
 * Choices where the platform is silent (docs/resources.md): names follow the apps
 * surface's rule and are unique per account (the client finds a volume by id or name), at most
 * GLOBAL_VOLUME_LIMIT per account; a record is `{id, name, createdAt}`; no client deletes one.
 */
import type { Rng } from "../../core/index.ts";
import { shortId, uniqueId } from "../ids.ts";
import { isoFromMicros } from "../iso-time.ts";
import { badName } from "./apps.ts";
import { done, refuse, type Done } from "./commands.ts";

export interface GlobalVolume {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly createdAt: string;
}

/** Per account: a limit on everything. */
export const GLOBAL_VOLUME_LIMIT = 50;

export class GlobalVolumes {
  private readonly records = new Map<string, GlobalVolume>();

  constructor(private readonly ids: Rng) {}

  /** The account's volumes, oldest first. */
  of(accountId: string): GlobalVolume[] {
    return [...this.records.values()].filter((v) => v.accountId === accountId);
  }

  create(accountId: string, name: string, now: number): Done<GlobalVolume> {
    const bad = badName("A global volume's", name);
    if (bad) return bad;
    const mine = this.of(accountId);
    if (mine.some((v) => v.name === name)) return refuse("conflict", `you already have a global volume named ${JSON.stringify(name)}`);
    if (mine.length >= GLOBAL_VOLUME_LIMIT) return refuse("limit", `you hold ${GLOBAL_VOLUME_LIMIT} global volumes, the most an account may`);
    const id = uniqueId(() => shortId(this.ids, 10), (x) => this.records.has(x));
    const volume: GlobalVolume = Object.freeze({ id, accountId, name, createdAt: isoFromMicros(now) });
    this.records.set(id, volume);
    return done(volume);
  }
}
