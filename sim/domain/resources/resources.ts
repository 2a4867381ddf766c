/**
 * The account-owned resources that the API can create, change and delete: templates, network
 * volumes, container registry credentials, serverless endpoints (their records; the running
 * model is sim/domain/serverless), and each account's SSH public keys. The catalog's records are
 * the initial content; `catalog` is a live view of the catalog with the current records, so every
 * reader of `platform.catalog` (validation, scheduling by volume, the REST and GraphQL views)
 * sees created records at once and deleted ones no more.
 *
 * Ids are drawn from one seeded stream per kind, so creating a template never shifts a volume's
 * id, and the same seed and requests give the same ids. Changes happen only on requests; no
 * event is scheduled, so the event log is unchanged by anything here.
 */
import type { Rng } from "../../core/index.ts";
import type { Catalog, Endpoint, NetworkVolume, Registry, Template } from "../../catalog/index.ts";
import { RESERVED_ENDPOINT_IDS } from "../../catalog/index.ts";
import { shortId, uniqueId } from "../ids.ts";
import { AppStore } from "./apps.ts";
import { GlobalVolumes } from "./global-volumes.ts";
import { SandboxStore } from "./sandboxes.ts";

export type EndpointType = "QUEUE" | "LOAD_BALANCER";

/** What the clients read of an endpoint beyond the model's configuration. */
export interface EndpointExtra {
  readonly templateId: string | null;
  readonly networkVolumeIds: readonly string[];
  readonly dataCenterIds: readonly string[];
  /** The GPU selection as the client sent it (pools, type ids, exclusions), comma-separated. */
  readonly gpuIds: string;
  readonly flashboot: "OFF" | "FLASHBOOT";
  /** CUDA versions (major.minor) the workers may run on, as the client sent them; recorded and returned, not used for placement. Absent: any. */
  readonly allowedCudaVersions?: readonly string[];
  /** QUEUE: jobs through /v2/{id}/run…; LOAD_BALANCER: HTTP routes on its workers, no job queue (fixed at creation). */
  readonly type: EndpointType;
  readonly createdAt: string;
  /** Raised by every change. */
  readonly version: number;
}

type Kind = "templates" | "networkVolumes" | "registries" | "endpoints";
type RecordOf<K extends Kind> = K extends "templates" ? Template : K extends "networkVolumes" ? NetworkVolume : K extends "registries" ? Registry : Endpoint;

/** Ids of the real platform's shape: templates, volumes and registries 10 characters, endpoints 14. */
const ID_LENGTH: Readonly<Record<Kind, number>> = { templates: 10, networkVolumes: 10, registries: 10, endpoints: 14 };

/** At most this many records of each kind per account: a limit on everything. */
export const RESOURCE_LIMIT_PER_ACCOUNT = 500;

const reserved = new Set(RESERVED_ENDPOINT_IDS);

export class Resources {
  private readonly records: { [K in Kind]: Map<string, RecordOf<K>> };
  private readonly ids: Record<Kind, Rng>;
  private readonly extras = new Map<string, EndpointExtra>();
  private readonly pubKeys = new Map<string, string>();
  /** Endpoint id → the template made with it (saveEndpoint's nested template), deleted with it. */
  private readonly bound = new Map<string, string>();
  private view: Catalog | undefined;
  /** Secrets, flash apps, environments and builds (the newest Python client's apps surface). */
  readonly apps: AppStore;
  /** CPU sandboxes (`/v2/sandboxes`). */
  readonly sandboxes: SandboxStore;
  /** Global volumes (GraphQL `globalStoreBuckets`). */
  readonly globalVolumes: GlobalVolumes;

  constructor(
    private readonly base: Catalog,
    rng: Rng,
    /** The handler endpoints created through the API run (see PlatformOptions.createdEndpointHandler). */
    readonly endpointHandler: string = "conformance",
  ) {
    this.records = {
      templates: new Map(base.templates.map((r) => [r.id, r])),
      networkVolumes: new Map(base.networkVolumes.map((r) => [r.id, r])),
      registries: new Map(base.registries.map((r) => [r.id, r])),
      endpoints: new Map(base.endpoints.map((r) => [r.id, r])),
    };
    this.ids = { templates: rng.fork("templates"), networkVolumes: rng.fork("network-volumes"), registries: rng.fork("registries"), endpoints: rng.fork("endpoints") };
    this.apps = new AppStore(rng.fork("apps"));
    this.sandboxes = new SandboxStore(rng.fork("sandboxes"));
    this.globalVolumes = new GlobalVolumes(rng.fork("global-volumes"));
  }

  /** The catalog with the current templates, volumes, registries and endpoints (rebuilt after a change). */
  get catalog(): Catalog {
    this.view ??= Object.freeze({
      ...this.base,
      templates: Object.freeze([...this.records.templates.values()]),
      networkVolumes: Object.freeze([...this.records.networkVolumes.values()]),
      registries: Object.freeze([...this.records.registries.values()]),
      endpoints: Object.freeze([...this.records.endpoints.values()]),
    });
    return this.view;
  }

  get<K extends Kind>(kind: K, id: string): RecordOf<K> | undefined {
    return this.records[kind].get(id) as RecordOf<K> | undefined;
  }

  /** How many records of a kind an account owns. */
  countOwned(kind: Kind, accountId: string): number {
    let n = 0;
    for (const r of this.records[kind].values()) if (r.accountId === accountId) n++;
    return n;
  }

  /** A fresh id for a kind: never one in use, never a reserved path segment. */
  newId(kind: Kind): string {
    return uniqueId(
      () => shortId(this.ids[kind], ID_LENGTH[kind]),
      // An endpoint id also must not be a public model's slug: both name a job route.
      (id) => this.records[kind].has(id) || reserved.has(id) || (kind === "endpoints" && [...this.records.endpoints.values()].some((e) => e.slug === id)),
    );
  }

  /** Adds or replaces a record (same id: replaced in place, keeping its list position). */
  put<K extends Kind>(kind: K, record: RecordOf<K>): RecordOf<K> {
    const frozen = Object.freeze(record) as RecordOf<K>;
    (this.records[kind] as Map<string, RecordOf<K>>).set(record.id, frozen);
    this.view = undefined;
    return frozen;
  }

  delete(kind: Kind, id: string): boolean {
    const removed = this.records[kind].delete(id);
    if (kind === "endpoints") {
      this.extras.delete(id);
      this.bound.delete(id);
    }
    if (removed) this.view = undefined;
    return removed;
  }

  endpointExtra(id: string): EndpointExtra | undefined {
    return this.extras.get(id);
  }

  setEndpointExtra(id: string, extra: EndpointExtra): void {
    this.extras.set(id, Object.freeze({ ...extra, networkVolumeIds: [...extra.networkVolumeIds], dataCenterIds: [...extra.dataCenterIds] }));
  }

  /** The template made with an endpoint (saveEndpoint's nested `template`), if any. */
  boundTemplate(endpointId: string): string | undefined {
    return this.bound.get(endpointId);
  }

  bindTemplate(endpointId: string, templateId: string): void {
    this.bound.set(endpointId, templateId);
  }

  /** The account's SSH public keys, newline-separated ("" when none were set). */
  pubKey(accountId: string): string {
    return this.pubKeys.get(accountId) ?? "";
  }

  setPubKey(accountId: string, keys: string): void {
    this.pubKeys.set(accountId, keys);
  }
}
