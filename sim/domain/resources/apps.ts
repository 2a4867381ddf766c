/**
 * What the newest official Python client's apps ("Flash") surface keeps on the platform: secrets,
 * flash apps with their environments and builds, artifact uploads and browser-login requests,
 * per account. Only records: nothing here runs or schedules anything, so the event log is
 * unchanged. Ids are drawn from one seeded stream per kind (same seed and requests, same ids).
 *
 * Choices where the platform is silent (docs/resources.md):
 * - a secret's value is checked for presence and never kept nor shown;
 * - an environment is `PENDING` until a build is deployed to it, then `HEALTHY` with that build
 *   active; the emulator does not start the manifest's endpoints: its endpoints are those a
 *   `saveEndpoint` bound to it (`flashEnvironmentId`), as `flash deploy` does, and it cannot be
 *   deleted while one of them is left (the client deletes them first);
 * - an endpoint's `modelReferences` (Hugging Face `owner/name[:revision]`) are checked and
 *   recorded: no weights are staged, and cold starts do not change;
 * - a build needs an upload prepared by the same app (its `objectKey`);
 * - a login request stays `PENDING` (no browser can approve it here) until it expires.
 */
import type { Rng } from "../../core/index.ts";
import { isoFromMicros } from "../iso-time.ts";
import { shortId, uniqueId, uuid } from "../ids.ts";
import { done, refuse, type Done, type Refusal } from "./commands.ts";

/** The apps client returns None on an answer naming "not found", so every refusal of an id says so. */
const notAmongYours = (what: string, id: string): Refusal => refuse("not-found", `${what} ${JSON.stringify(id)} not found among yours`);

export interface Secret {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly description: string;
  readonly createdAt: string;
}

export interface FlashBuild {
  readonly id: string;
  readonly appId: string;
  readonly objectKey: string;
  readonly manifest: unknown;
  readonly createdAt: string;
  /** The uploaded tarball's size and SHA-256, when it was PUT before finalizing. */
  readonly tarball: TarballReceipt | null;
}

export interface FlashEnvironment {
  readonly id: string;
  readonly appId: string;
  readonly name: string;
  readonly state: "PENDING" | "HEALTHY";
  readonly activeBuildId: string | null;
  readonly createdAt: string;
}

export interface FlashApp {
  readonly id: string;
  readonly accountId: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface ArtifactUpload {
  readonly objectKey: string;
  readonly appId: string;
  readonly tarballSize: number;
  readonly expiresAt: string;
  /** What the PUT to its upload URL delivered (the bytes themselves are not kept). */
  readonly received?: TarballReceipt;
}

export interface TarballReceipt {
  readonly bytes: number;
  readonly sha256: string;
}

/** Where an upload's tarball is PUT on the emulator: its object key under this prefix. */
export const ARTIFACT_PREFIX = "/flash-artifacts/";
export const artifactPath = (objectKey: string): string => `${ARTIFACT_PREFIX}${objectKey}`;

export interface AuthRequest {
  readonly id: string;
  readonly status: "PENDING" | "APPROVED" | "CONSUMED" | "EXPIRED";
  readonly expiresAt: string;
  /** On the one APPROVED answer: the account whose key the login grants. */
  readonly approvedFor?: string;
}

/** A login request is approved this long after it is made (model time): the emulator's stand-in for a browser click. */
export const AUTH_APPROVAL_DELAY_US = 3 * 1_000_000;

/** Per account (apps, secrets) and per app (environments, builds, open uploads): a limit on everything. */
export const APP_LIMITS = Object.freeze({ apps: 50, secrets: 100, environmentsPerApp: 20, buildsPerApp: 100, uploadsPerApp: 20, tarballBytes: 500 * 1024 * 1024, authRequests: 1000 });
/** How long an upload or a login request stays open, in microseconds of model time (10 minutes). */
const OPEN_FOR_US = 10 * 60 * 1_000_000;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** runpod/apps/model.py's rule for a model reference: `owner/name`, then an optional `:revision`. */
const MODEL_REFERENCE = /^[\w.-]+\/[\w.-]+(?::[\w.\-/]{1,100})?$/;
/** At most this many model references per endpoint (the client sends one). */
export const MODEL_REFERENCE_LIMIT = 8;

/** The apps surface's name rule (secrets, apps, environments, global volumes): 1-64 characters, no spaces. */
export const badName = (what: string, name: string): Refusal | undefined =>
  NAME.test(name) ? undefined : refuse("invalid", `${what} name ${JSON.stringify(name)} must be 1-64 letters, digits, ".", "_" or "-", starting with a letter or digit`);

export class AppStore {
  private readonly secrets = new Map<string, Secret>();
  private readonly apps = new Map<string, FlashApp>();
  private readonly environments = new Map<string, FlashEnvironment>();
  private readonly builds = new Map<string, FlashBuild>();
  private readonly uploads = new Map<string, ArtifactUpload & { readonly expiresAtUs: number }>();
  private readonly authRequests = new Map<string, { readonly approvesAtUs: number; readonly expiresAtUs: number; readonly expiresAt: string; readonly accountId: string; consumed: boolean }>();
  /** Endpoint id → the environment a saveEndpoint bound it to (`flashEnvironmentId`). */
  private readonly bindings = new Map<string, string>();
  /** Endpoint id → its model references, as sent. */
  private readonly models = new Map<string, readonly string[]>();
  private readonly ids: Readonly<Record<"secrets" | "apps" | "environments" | "builds" | "uploads" | "auth", Rng>>;

  constructor(rng: Rng) {
    this.ids = { secrets: rng.fork("secrets"), apps: rng.fork("apps"), environments: rng.fork("environments"), builds: rng.fork("builds"), uploads: rng.fork("uploads"), auth: rng.fork("auth") };
  }

  private newId(kind: "secrets" | "apps" | "environments" | "builds", taken: ReadonlyMap<string, unknown>): string {
    return uniqueId(() => shortId(this.ids[kind], 10), (id) => taken.has(id));
  }

  // -------------------------------------------------------------- secrets

  secretsOf(accountId: string): Secret[] {
    return [...this.secrets.values()].filter((s) => s.accountId === accountId);
  }

  createSecret(accountId: string, input: { readonly name: string; readonly value: string; readonly description?: string | null }, now: number): Done<Secret> {
    const bad = badName("A secret's", input.name);
    if (bad) return bad;
    if (input.value === "") return refuse("invalid", "a secret needs a value");
    if (input.value.length > 32 * 1024) return refuse("invalid", "a secret's value is at most 32768 characters");
    const mine = this.secretsOf(accountId);
    if (mine.some((s) => s.name === input.name)) return refuse("conflict", `you already have a secret named ${JSON.stringify(input.name)}`);
    if (mine.length >= APP_LIMITS.secrets) return refuse("limit", `you hold ${APP_LIMITS.secrets} secrets, the most an account may; delete one first`);
    const secret: Secret = Object.freeze({ id: this.newId("secrets", this.secrets), accountId, name: input.name, description: input.description ?? "", createdAt: isoFromMicros(now) });
    this.secrets.set(secret.id, secret);
    return done(secret);
  }

  deleteSecret(accountId: string, id: string): Done<true> {
    const s = this.secrets.get(id);
    if (s === undefined || s.accountId !== accountId) return notAmongYours("secret", id);
    this.secrets.delete(id);
    return done(true);
  }

  // ----------------------------------------------------- apps and environments

  appsOf(accountId: string): FlashApp[] {
    return [...this.apps.values()].filter((a) => a.accountId === accountId);
  }

  appByName(accountId: string, name: string): FlashApp | undefined {
    return this.appsOf(accountId).find((a) => a.name === name);
  }

  ownApp(accountId: string, id: string): FlashApp | undefined {
    const app = this.apps.get(id);
    return app?.accountId === accountId ? app : undefined;
  }

  environmentsOf(appId: string): FlashEnvironment[] {
    return [...this.environments.values()].filter((e) => e.appId === appId);
  }

  buildsOf(appId: string): FlashBuild[] {
    return [...this.builds.values()].filter((b) => b.appId === appId);
  }

  createApp(accountId: string, name: string, now: number): Done<FlashApp> {
    const bad = badName("An app's", name);
    if (bad) return bad;
    if (this.appByName(accountId, name)) return refuse("conflict", `you already have a flash app named ${JSON.stringify(name)}`);
    if (this.appsOf(accountId).length >= APP_LIMITS.apps) return refuse("limit", `you hold ${APP_LIMITS.apps} flash apps, the most an account may; delete one first`);
    const app: FlashApp = Object.freeze({ id: this.newId("apps", this.apps), accountId, name, createdAt: isoFromMicros(now) });
    this.apps.set(app.id, app);
    return done(app);
  }

  /** Deletes the app with its environments, builds and open uploads. */
  deleteApp(accountId: string, id: string): Done<true> {
    if (!this.ownApp(accountId, id)) return notAmongYours("flash app", id);
    const left = this.boundInUse(this.environmentsOf(id).map((e) => e.id));
    if (left) return left;
    for (const e of this.environmentsOf(id)) this.environments.delete(e.id);
    for (const b of this.buildsOf(id)) this.builds.delete(b.id);
    for (const [k, u] of this.uploads) if (u.appId === id) this.uploads.delete(k);
    this.apps.delete(id);
    return done(true);
  }

  createEnvironment(accountId: string, appId: string, name: string, now: number): Done<FlashEnvironment> {
    if (!this.ownApp(accountId, appId)) return notAmongYours("flash app", appId);
    const bad = badName("An environment's", name);
    if (bad) return bad;
    const envs = this.environmentsOf(appId);
    if (envs.some((e) => e.name === name)) return refuse("conflict", `the app already has an environment named ${JSON.stringify(name)}`);
    if (envs.length >= APP_LIMITS.environmentsPerApp) return refuse("limit", `the app has ${APP_LIMITS.environmentsPerApp} environments, the most an app may; delete one first`);
    const env: FlashEnvironment = Object.freeze({ id: this.newId("environments", this.environments), appId, name, state: "PENDING", activeBuildId: null, createdAt: isoFromMicros(now) });
    this.environments.set(env.id, env);
    return done(env);
  }

  environmentByName(accountId: string, appId: string, name: string): Done<FlashEnvironment> {
    if (!this.ownApp(accountId, appId)) return notAmongYours("flash app", appId);
    const env = this.environmentsOf(appId).find((e) => e.name === name);
    return env ? done(env) : refuse("not-found", `flash environment ${JSON.stringify(name)} not found in that app`);
  }

  private ownEnvironment(accountId: string, id: string): FlashEnvironment | undefined {
    const env = this.environments.get(id);
    return env && this.ownApp(accountId, env.appId) ? env : undefined;
  }

  deleteEnvironment(accountId: string, id: string): Done<true> {
    if (!this.ownEnvironment(accountId, id)) return notAmongYours("flash environment", id);
    const left = this.boundInUse([id]);
    if (left) return left;
    this.environments.delete(id);
    return done(true);
  }

  // ---------------------------------------------------------- endpoints of an environment

  /** Refused while endpoints are bound to one of these environments (the client deletes them first). */
  private boundInUse(environmentIds: readonly string[]): Refusal | undefined {
    const ids = [...this.bindings].filter(([, env]) => environmentIds.includes(env)).map(([endpoint]) => endpoint);
    return ids.length === 0 ? undefined : refuse("conflict", `endpoints ${ids.join(", ")} are deployed to the environment; delete them first (deleteEndpoint)`);
  }

  /**
   * Whether `endpointId` (undefined: a new endpoint) may be bound to the caller's environment:
   * an endpoint belongs to one environment, for good.
   */
  checkBinding(accountId: string, environmentId: string, endpointId: string | undefined): Refusal | undefined {
    if (!this.ownEnvironment(accountId, environmentId)) return notAmongYours("flash environment", environmentId);
    const bound = endpointId === undefined ? undefined : this.bindings.get(endpointId);
    if (bound !== undefined && bound !== environmentId) return refuse("conflict", `endpoint ${endpointId} is deployed to flash environment ${bound}; an endpoint stays in the environment it was deployed to`);
    return undefined;
  }

  /** After checkBinding and a saved endpoint. */
  bindEndpoint(environmentId: string, endpointId: string): void {
    this.bindings.set(endpointId, environmentId);
  }

  /** The ids of the endpoints bound to the environment, in binding order. */
  endpointsOf(environmentId: string): string[] {
    return [...this.bindings].filter(([, env]) => env === environmentId).map(([endpoint]) => endpoint);
  }

  checkModelReferences(references: readonly string[]): Refusal | undefined {
    if (references.length > MODEL_REFERENCE_LIMIT) return refuse("invalid", `${references.length} model references were sent; an endpoint takes at most ${MODEL_REFERENCE_LIMIT}`);
    const bad = references.find((r) => !MODEL_REFERENCE.test(r));
    return bad === undefined ? undefined : refuse("invalid", `model reference ${JSON.stringify(bad)} must be "owner/name" or "owner/name:revision" (a Hugging Face repository)`);
  }

  /** After checkModelReferences and a saved endpoint; an empty list clears them. */
  setModelReferences(endpointId: string, references: readonly string[]): void {
    if (references.length === 0) this.models.delete(endpointId);
    else this.models.set(endpointId, Object.freeze([...references]));
  }

  modelReferencesOf(endpointId: string): readonly string[] {
    return this.models.get(endpointId) ?? [];
  }

  /** The endpoint was deleted: it leaves its environment and its model references. */
  forgetEndpoint(endpointId: string): void {
    this.bindings.delete(endpointId);
    this.models.delete(endpointId);
  }

  // ---------------------------------------------------------- builds

  prepareUpload(accountId: string, appId: string, tarballSize: number, now: number): Done<ArtifactUpload> {
    if (!this.ownApp(accountId, appId)) return notAmongYours("flash app", appId);
    if (!Number.isInteger(tarballSize) || tarballSize < 1 || tarballSize > APP_LIMITS.tarballBytes) {
      return refuse("invalid", `tarballSize ${tarballSize} must be a whole number of bytes from 1 to ${APP_LIMITS.tarballBytes}`);
    }
    this.dropExpiredUploads(now);
    if ([...this.uploads.values()].filter((u) => u.appId === appId).length >= APP_LIMITS.uploadsPerApp) {
      return refuse("limit", `the app has ${APP_LIMITS.uploadsPerApp} uploads open; finalize one or wait ten minutes`);
    }
    const objectKey = `flash/${appId}/${uuid(this.ids.uploads)}.tar.gz`;
    const upload = Object.freeze({ objectKey, appId, tarballSize, expiresAt: isoFromMicros(now + OPEN_FOR_US), expiresAtUs: now + OPEN_FOR_US });
    this.uploads.set(objectKey, upload);
    return done(upload);
  }

  /**
   * The PUT of an upload's tarball (its URL is the credential, as a presigned URL is): it must
   * be open and the tarball exactly the size prepared; a second PUT replaces the first.
   */
  receiveUpload(objectKey: string, receipt: TarballReceipt, now: number): Done<ArtifactUpload> {
    this.dropExpiredUploads(now);
    const upload = this.uploads.get(objectKey);
    if (upload === undefined) return refuse("not-found", `no open upload ${JSON.stringify(objectKey)} (prepare one with prepareFlashArtifactUpload; uploads stay open ten minutes)`);
    if (receipt.bytes !== upload.tarballSize) {
      return refuse("invalid", `the tarball is ${receipt.bytes} bytes but the upload was prepared for ${upload.tarballSize}; prepare it again with the file's size`);
    }
    const next = Object.freeze({ ...upload, received: Object.freeze({ bytes: receipt.bytes, sha256: receipt.sha256 }) });
    this.uploads.set(objectKey, next);
    return done(next);
  }

  finalizeUpload(accountId: string, input: { readonly appId: string; readonly objectKey: string; readonly manifest: unknown }, now: number): Done<FlashBuild> {
    if (!this.ownApp(accountId, input.appId)) return notAmongYours("flash app", input.appId);
    this.dropExpiredUploads(now);
    const upload = this.uploads.get(input.objectKey);
    if (upload === undefined || upload.appId !== input.appId) return refuse("not-found", `upload ${JSON.stringify(input.objectKey)} not found for that app (prepare one first; uploads stay open ten minutes)`);
    if (typeof input.manifest !== "object" || input.manifest === null || Array.isArray(input.manifest)) return refuse("invalid", "manifest must be a JSON object");
    if (this.buildsOf(input.appId).length >= APP_LIMITS.buildsPerApp) return refuse("limit", `the app has ${APP_LIMITS.buildsPerApp} builds, the most an app may`);
    this.uploads.delete(input.objectKey);
    const build: FlashBuild = Object.freeze({ id: this.newId("builds", this.builds), appId: input.appId, objectKey: input.objectKey, manifest: input.manifest, createdAt: isoFromMicros(now), tarball: upload.received ?? null });
    this.builds.set(build.id, build);
    return done(build);
  }

  deployBuild(accountId: string, environmentId: string, buildId: string): Done<FlashEnvironment> {
    const env = this.ownEnvironment(accountId, environmentId);
    if (!env) return notAmongYours("flash environment", environmentId);
    const build = this.builds.get(buildId);
    if (build === undefined || build.appId !== env.appId) return refuse("not-found", `flash build ${JSON.stringify(buildId)} not found in the environment's app`);
    const next: FlashEnvironment = Object.freeze({ ...env, state: "HEALTHY", activeBuildId: build.id });
    this.environments.set(env.id, next);
    return done(next);
  }

  private dropExpiredUploads(now: number): void {
    for (const [k, u] of this.uploads) if (u.expiresAtUs <= now) this.uploads.delete(k);
  }

  // ---------------------------------------------------------- browser login

  /** `accountId`: whose key the approval grants (the caller's, or the emulator's console user for a keyless request). */
  createAuthRequest(now: number, accountId: string): Done<AuthRequest> {
    for (const [k, r] of this.authRequests) if (r.expiresAtUs <= now) this.authRequests.delete(k);
    if (this.authRequests.size >= APP_LIMITS.authRequests) return refuse("limit", "too many login requests are open; wait ten minutes");
    const id = uuid(this.ids.auth);
    const request = { approvesAtUs: now + AUTH_APPROVAL_DELAY_US, expiresAtUs: now + OPEN_FOR_US, expiresAt: isoFromMicros(now + OPEN_FOR_US), accountId, consumed: false };
    this.authRequests.set(id, request);
    return done({ id, status: "PENDING", expiresAt: request.expiresAt });
  }

  /**
   * PENDING until its approval time, then APPROVED once (that answer carries the account, whose
   * key the caller hands out), CONSUMED after; EXPIRED if nobody read the approval in time.
   */
  authRequestStatus(id: string, now: number): Done<AuthRequest> {
    const r = this.authRequests.get(id);
    if (r === undefined) return refuse("not-found", `login request ${JSON.stringify(id)} not found`);
    const base = { id, expiresAt: r.expiresAt };
    if (r.consumed) return done({ ...base, status: "CONSUMED" });
    if (r.expiresAtUs <= now) return done({ ...base, status: "EXPIRED" });
    if (now < r.approvesAtUs) return done({ ...base, status: "PENDING" });
    r.consumed = true;
    return done({ ...base, status: "APPROVED", approvedFor: r.accountId });
  }
}
