/**
 * List and get of network volumes, templates, registry credentials and serverless endpoints,
 * read from the live catalog (the catalog's records and those accounts created). Each kind says which records a caller sees; a record outside that set
 * answers 404 exactly like an unknown id, so one account never learns of another's resources.
 */
import type { Catalog, Endpoint, NetworkVolume, Registry, Template } from "../../../catalog/index.ts";
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import type { Platform } from "../../../domain/platform.ts";
import { catalogEndpointExtra } from "../../../domain/resources/index.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import { endpointView, networkVolumeView, registryView, templateView } from "./resource-views.ts";

interface ResourceKind<T extends { readonly id: string }> {
  /** In sentences: "network volume". */
  readonly noun: string;
  /** The list's key in the answer and the path that lists it. */
  readonly listKey: string;
  readonly listPath: string;
  readonly records: (catalog: Catalog) => readonly T[];
  readonly visible: (record: T, accountId: string) => boolean;
  readonly view: (record: T, platform: Platform) => unknown;
}

function listAndGet<T extends { readonly id: string }>(kind: ResourceKind<T>): { list: Operation; get: Operation } {
  const visibleTo = (catalog: Catalog, accountId: string) => kind.records(catalog).filter((r) => kind.visible(r, accountId));
  return {
    list: ({ platform, principal }) =>
      respond(json(200, { [kind.listKey]: visibleTo(platform.catalog, principal.accountId).map((r) => kind.view(r, platform)) })),
    get: ({ platform, params, principal }) => {
      const id = params.id ?? "";
      const found = visibleTo(platform.catalog, principal.accountId).find((r) => r.id === id);
      if (found) return respond(json(200, kind.view(found, platform)));
      return respond(problem(404, `No ${kind.noun} ${JSON.stringify(id)} is visible to your account; list them with GET ${kind.listPath}.`));
    },
  };
}

export const networkVolumeOps = listAndGet<NetworkVolume>({
  noun: "network volume",
  listKey: "networkVolumes",
  listPath: "/v2/networkvolumes",
  records: (c) => c.networkVolumes,
  visible: (v, accountId) => v.accountId === accountId,
  view: networkVolumeView,
});

/** Official templates (no owner), public ones, and the caller's own. */
export const templateOps = listAndGet<Template>({
  noun: "template",
  listKey: "templates",
  listPath: "/v2/templates",
  records: (c) => c.templates,
  visible: (t, accountId) => t.accountId === null || t.isPublic || t.accountId === accountId,
  view: templateView,
});

export const registryOps = listAndGet<Registry>({
  noun: "container registry credential",
  listKey: "registries",
  listPath: "/v2/containerregistryauth",
  records: (c) => c.registries,
  visible: (r, accountId) => r.accountId === accountId,
  view: registryView,
});

/** The caller's endpoints and the shared built-ins (the conformance endpoint, public models). */
export const endpointOps = listAndGet<Endpoint>({
  noun: "serverless endpoint",
  listKey: "endpoints",
  listPath: "/v2/endpoints",
  records: (c) => c.endpoints,
  visible: (e, accountId) => e.accountId === null || e.accountId === accountId,
  view: (e, platform) => endpointView(e, platform.resources.endpointExtra(e.id) ?? catalogEndpointExtra(platform, e)),
});
