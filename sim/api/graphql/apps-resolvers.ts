/**
 * The apps ("Flash") surface of the newest official Python client: secrets, flash apps, their
 * environments and builds, artifact uploads, browser-login requests, global volumes, and CPU flavors with their
 * stock in one data center. Each translates into sim/domain/resources' AppStore; a refusal is a
 * GraphQL error (HTTP 200, `errors`) whose message says "not found" where the client looks for
 * those words (`get_app_by_name`, `get_environment_by_name` answer None then).
 */
import type { CpuFlavor } from "../../catalog/index.ts";
import { type FlashApp, type FlashEnvironment, type GlobalVolume, artifactPath, ownEndpoint } from "../../domain/resources/index.ts";
import { endpointObject, networkVolumeObject } from "./resource-objects.ts";
import { GraphqlCode, userError } from "./error-codes.ts";
import { unwrap } from "./resource-resolvers.ts";
import type { ResolverContext } from "./resolver-context.ts";

const store = (ctx: ResolverContext) => ctx.platform.resources.apps;

/** An environment with the endpoints deployed to it (saveEndpoint's flashEnvironmentId) and their network volumes. */
function environmentObject(ctx: ResolverContext, env: FlashEnvironment) {
  const { platform, principal } = ctx;
  const endpoints = () => store(ctx).endpointsOf(env.id).flatMap((id) => {
    const own = ownEndpoint(platform, principal.accountId, id);
    return own === undefined ? [] : [endpointObject(platform, own)];
  });
  const networkVolumes = () => {
    const ids = new Set(store(ctx).endpointsOf(env.id).flatMap((id) => ownEndpoint(platform, principal.accountId, id)?.extra.networkVolumeIds ?? []));
    return [...ids].flatMap((id) => {
      const v = platform.resources.get("networkVolumes", id);
      return v === undefined ? [] : [networkVolumeObject(v)];
    });
  };
  return { id: env.id, name: env.name, state: env.state, activeBuildId: env.activeBuildId, createdAt: env.createdAt, endpoints, networkVolumes };
}

function appObject(ctx: ResolverContext, app: FlashApp) {
  return {
    id: app.id,
    name: app.name,
    createdAt: app.createdAt,
    flashEnvironments: () => store(ctx).environmentsOf(app.id).map((e) => environmentObject(ctx, e)),
    flashBuilds: () => store(ctx).buildsOf(app.id).map((b) => ({ id: b.id, createdAt: b.createdAt, manifest: b.manifest })),
  };
}

const globalVolumeObject = (v: GlobalVolume) => ({ id: v.id, name: v.name, createdAt: v.createdAt });

/** `myself { secrets, flashApps, globalStoreBuckets }`. */
export function userApps(ctx: ResolverContext) {
  const accountId = ctx.principal.accountId;
  return {
    secrets: () => store(ctx).secretsOf(accountId).map((s) => ({ id: s.id, name: s.name, description: s.description, createdAt: s.createdAt })),
    flashApps: () => store(ctx).appsOf(accountId).map((a) => appObject(ctx, a)),
    globalStoreBuckets: () => ctx.platform.resources.globalVolumes.of(accountId).map(globalVolumeObject),
  };
}

/** `create_global_volume(name)`: a global volume of the caller's (a name taken: CONFLICT). */
export function globalStoreBucketCreate(args: { input: { name: string } }, ctx: ResolverContext) {
  return globalVolumeObject(unwrap(ctx.platform.resources.globalVolumes.create(ctx.principal.accountId, args.input.name, ctx.now), "globalStoreBucketCreate"));
}

export function secretCreate(args: { input: { name: string; value: string; description?: string | null } }, ctx: ResolverContext) {
  const s = unwrap(store(ctx).createSecret(ctx.principal.accountId, args.input, ctx.now), "secretCreate");
  return { id: s.id, name: s.name, description: s.description, createdAt: s.createdAt };
}

export function secretDelete(args: { id: string }, ctx: ResolverContext): boolean {
  return unwrap(store(ctx).deleteSecret(ctx.principal.accountId, args.id), "secretDelete");
}

export function flashAppByName(args: { flashAppName: string }, ctx: ResolverContext) {
  const app = store(ctx).appByName(ctx.principal.accountId, args.flashAppName);
  if (app === undefined) throw userError(GraphqlCode.NOT_FOUND, `flashAppByName: flash app ${JSON.stringify(args.flashAppName)} not found among yours.`);
  return appObject(ctx, app);
}

export function createFlashApp(args: { input: { name: string } }, ctx: ResolverContext) {
  return appObject(ctx, unwrap(store(ctx).createApp(ctx.principal.accountId, args.input.name, ctx.now), "createFlashApp"));
}

export function deleteFlashApp(args: { flashAppId: string }, ctx: ResolverContext): boolean {
  return unwrap(store(ctx).deleteApp(ctx.principal.accountId, args.flashAppId), "deleteFlashApp");
}

export function createFlashEnvironment(args: { input: { flashAppId: string; name: string } }, ctx: ResolverContext) {
  return environmentObject(ctx, unwrap(store(ctx).createEnvironment(ctx.principal.accountId, args.input.flashAppId, args.input.name, ctx.now), "createFlashEnvironment"));
}

export function flashEnvironmentByName(args: { input: { flashAppId: string; name: string } }, ctx: ResolverContext) {
  return environmentObject(ctx, unwrap(store(ctx).environmentByName(ctx.principal.accountId, args.input.flashAppId, args.input.name), "flashEnvironmentByName"));
}

export function deleteFlashEnvironment(args: { flashEnvironmentId: string }, ctx: ResolverContext): boolean {
  return unwrap(store(ctx).deleteEnvironment(ctx.principal.accountId, args.flashEnvironmentId), "deleteFlashEnvironment");
}

export function prepareFlashArtifactUpload(args: { input: { flashAppId: string; tarballSize: number } }, ctx: ResolverContext) {
  const u = unwrap(store(ctx).prepareUpload(ctx.principal.accountId, args.input.flashAppId, args.input.tarballSize, ctx.now), "prepareFlashArtifactUpload");
  // The tarball goes to the emulator itself (PUT, see sim/http/artifact-uploads.ts), like a presigned URL: no key needed.
  return { uploadUrl: ctx.origin === undefined ? null : `${ctx.origin}${artifactPath(u.objectKey)}`, objectKey: u.objectKey, expiresAt: u.expiresAt };
}

export function finalizeFlashArtifactUpload(args: { input: { flashAppId: string; objectKey: string; manifest: unknown } }, ctx: ResolverContext) {
  const { flashAppId, objectKey, manifest } = args.input;
  const b = unwrap(store(ctx).finalizeUpload(ctx.principal.accountId, { appId: flashAppId, objectKey, manifest }, ctx.now), "finalizeFlashArtifactUpload");
  return { id: b.id, createdAt: b.createdAt, manifest: b.manifest };
}

export function deployBuildToEnvironment(args: { input: { flashEnvironmentId: string; flashBuildId: string } }, ctx: ResolverContext) {
  return environmentObject(ctx, unwrap(store(ctx).deployBuild(ctx.principal.accountId, args.input.flashEnvironmentId, args.input.flashBuildId), "deployBuildToEnvironment"));
}

/**
 * The emulator's console user, who "approves" a keyless login: the first account of the catalog
 * with a full-access key. A request sent with a key is approved for that key's account.
 */
function consoleAccount(ctx: ResolverContext): string {
  if (ctx.principal.accountId !== "") return ctx.principal.accountId;
  return ctx.platform.catalog.accounts.find((a) => a.keys.some((k) => k.access === "full"))?.id ?? "";
}

/** The key an approved login hands out: the account's first full-access key. */
function grantedKey(ctx: ResolverContext, accountId: string): string | null {
  return ctx.platform.catalog.accounts.find((a) => a.id === accountId)?.keys.find((k) => k.access === "full")?.key ?? null;
}

export function createFlashAuthRequest(_args: unknown, ctx: ResolverContext) {
  return { ...unwrap(store(ctx).createAuthRequest(ctx.now, consoleAccount(ctx)), "createFlashAuthRequest"), apiKey: null };
}

export function flashAuthRequestStatus(args: { flashAuthRequestId: string }, ctx: ResolverContext) {
  const { approvedFor, ...r } = unwrap(store(ctx).authRequestStatus(args.flashAuthRequestId, ctx.now), "flashAuthRequestStatus");
  return { ...r, apiKey: approvedFor === undefined ? null : grantedKey(ctx, approvedFor) };
}

/** A flavor with `specifics(input: {dataCenterId, instanceId})`: its stock there at that size (or its smallest). */
function cpuFlavorObject(ctx: ResolverContext, f: CpuFlavor) {
  const sizes = [...f.vcpuCounts].sort((a, b) => a - b);
  return {
    id: f.id,
    displayName: f.name,
    groupName: f.group,
    ramMultiplier: f.ramGbPerVcpu,
    minVcpu: sizes[0],
    maxVcpu: sizes[sizes.length - 1],
    specifics: (a: { input?: { dataCenterId?: string | null; instanceId?: string | null } | null }) => {
      const dataCenterId = a.input?.dataCenterId ?? undefined;
      const instanceId = a.input?.instanceId ?? undefined;
      const m = instanceId === undefined ? undefined : /^([^-]+)-([0-9]+)/.exec(instanceId);
      if (instanceId !== undefined && (m === null || m![1] !== f.id || !f.vcpuCounts.includes(Number(m![2]) as never))) {
        throw userError(GraphqlCode.BAD_USER_INPUT, `specifics: instanceId ${JSON.stringify(instanceId)} is not a size of flavor ${f.id}; send ${f.id}-<vCPUs>-<GB>, e.g. ${f.id}-${sizes[0]}-${sizes[0]! * f.ramGbPerVcpu}.`);
      }
      const vcpuCount = m ? Number(m[2]) : undefined;
      return {
        stockStatus: ctx.platform.cpuStock.stockStatus(f.id, { ...(dataCenterId !== undefined ? { dataCenterId } : {}), ...(vcpuCount !== undefined ? { vcpuCount } : {}) }),
        instanceId: instanceId ?? null,
        dataCenterId: dataCenterId ?? null,
      };
    },
  };
}

export function cpuFlavors(args: { input?: { id?: string | null } | null }, ctx: ResolverContext) {
  const id = args.input?.id ?? undefined;
  return ctx.platform.catalog.cpuFlavors.filter((f) => id === undefined || f.id === id).map((f) => cpuFlavorObject(ctx, f));
}
