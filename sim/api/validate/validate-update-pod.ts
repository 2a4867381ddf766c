/**
 * Validation of the PATCH of a pod: the UpdatePodRequest schema (422), then the mount update
 * rules that need the pod (400): no empty network array, no change of mount kind, no other
 * volumeId, no persistent mount and no global networking on a CPU pod.
 */
import type { UpdatePodRequest } from "../schemas/index.ts";
import { UpdatePodRequest as UpdatePodRequestSchema } from "../schemas/index.ts";
import { copyStringRecord, has, isPlainObject, own, type JsonObject } from "./own.ts";
import { prototypeKeyViolations } from "./prototype-key-violations.ts";
import { schemaViolations, type IssueRoute } from "./schema-violations.ts";
import { sharedValidator } from "./shared-validator.ts";
import { fail, type Validated, type Violation } from "./violation.ts";

/** What the mount rules need to know of the pod being changed. */
export interface UpdatePodTarget {
  readonly kind: "gpu" | "cpu";
  /** The mount kind chosen at create, fixed for the pod's life. */
  readonly mountKind: "none" | "persistent" | "network";
  /** The pod's network volume, when mountKind is "network". */
  readonly volumeId?: string;
}

/**
 * A valid PATCH with only the fields it sets. `mounts` is absent when the mount stays as it is
 * (omitted, or sent as `{}`: mount update rule 1).
 */
export type NormalizedUpdatePod = UpdatePodRequest;

const ROUTES: readonly IssueRoute[] = [
  { keyword: "additionalProperties", ruleId: "pods.update.unknown-property" },
  { keyword: "required", path: /^\/mounts\//, ruleId: "pods.update.mount-partial-entry" },
  { keyword: "minLength", path: /^\/name$/, ruleId: "pods.update.name-min-length" },
  { keyword: "minimum", path: /^\/disk$/, ruleId: "pods.update.disk-minimum" },
  { keyword: "minimum", path: /^\/mounts\/persistent\/size$/, ruleId: "pods.update.persistent-size-minimum" },
  { keyword: "maxItems", path: /^\/mounts\/network$/, ruleId: "pods.update.network-max-items" },
  { keyword: "pattern", path: /^\/ports\/\d+$/, ruleId: "pods.update.port-format" },
  { keyword: "type", path: /^\/env\/[^/]+$/, ruleId: "pods.update.env-string-values" },
  { ruleId: "pods.update.field-type" },
];

const ROOT_HINT = 'a JSON object of the fields to change, e.g. {"name": "new-name"} or {"locked": true}';

const KIND_WORDS = { none: "without mounts", persistent: "with a persistent mount", network: "with a network mount" } as const;

function mountViolations(body: JsonObject, pod: UpdatePodTarget): Violation[] {
  const out: Violation[] = [];
  const mounts = own(body, "mounts");
  if (!isPlainObject(mounts)) return out;
  const hasPersistent = has(mounts, "persistent");
  const network = own(mounts, "network");
  const hasNetwork = has(mounts, "network");
  if (hasPersistent && hasNetwork) {
    out.push({
      ruleId: "pods.update.mounts-exclusive",
      path: "/mounts",
      message: "mounts sets both persistent and network; send at most one of them, the kind the pod was created with.",
    });
  }
  if (Array.isArray(network) && network.length === 0) {
    out.push({
      ruleId: "pods.update.network-empty-array",
      path: "/mounts/network",
      message: "mounts.network is an empty array, which is not accepted; leave mounts out (or send {}) to keep the mount as it is.",
    });
  }
  if (hasPersistent && pod.kind === "cpu") {
    out.push({
      ruleId: "pods.update.persistent-on-cpu",
      path: "/mounts/persistent",
      message: "mounts.persistent is not available on CPU pods; leave it out.",
    });
  }
  const introduces: Array<["persistent" | "network", string]> = [];
  if (hasPersistent && pod.mountKind !== "persistent") introduces.push(["persistent", "/mounts/persistent"]);
  if (Array.isArray(network) && network.length > 0 && pod.mountKind !== "network") introduces.push(["network", "/mounts/network"]);
  for (const [kind, path] of introduces) {
    out.push({
      ruleId: "pods.update.mount-kind-fixed",
      path,
      message: `The pod was created ${KIND_WORDS[pod.mountKind]}, and the mount kind cannot change; leave mounts.${kind} out${
        pod.mountKind === "none" ? "" : `, or change only the path of its ${pod.mountKind} mount`
      }.`,
    });
  }
  if (pod.mountKind === "network" && pod.volumeId !== undefined && Array.isArray(network)) {
    network.forEach((entry, i) => {
      const volumeId = own(entry, "volumeId");
      if (typeof volumeId === "string" && volumeId !== pod.volumeId) {
        out.push({
          ruleId: "pods.update.volume-id-immutable",
          path: `/mounts/network/${i}/volumeId`,
          message: `mounts.network[${i}].volumeId is ${JSON.stringify(volumeId)}, but the pod's network volume is ${JSON.stringify(pod.volumeId)} and cannot change; send ${JSON.stringify(pod.volumeId)}.`,
        });
      }
    });
  }
  return out;
}

function normalize(body: UpdatePodRequest): NormalizedUpdatePod {
  const out: { -readonly [K in keyof UpdatePodRequest]: UpdatePodRequest[K] } = {};
  if (body.name !== undefined) out.name = body.name;
  if (body.image !== undefined) out.image = body.image;
  if (body.args !== undefined) out.args = body.args;
  if (body.disk !== undefined) out.disk = body.disk;
  if (body.ports !== undefined) out.ports = [...body.ports];
  if (body.env !== undefined) out.env = copyStringRecord(body.env);
  if (body.registry !== undefined) out.registry = body.registry;
  if (body.locked !== undefined) out.locked = body.locked;
  if (body.globalNetworking !== undefined) out.globalNetworking = body.globalNetworking;
  const m = body.mounts;
  if (m?.persistent !== undefined) out.mounts = { persistent: { size: m.persistent.size, path: m.persistent.path } };
  if (m?.network !== undefined) out.mounts = { network: m.network.map((n) => ({ volumeId: n.volumeId, path: n.path })) };
  return out;
}

export function validateUpdatePod(body: unknown, pod: UpdatePodTarget): Validated<NormalizedUpdatePod> {
  const issues = sharedValidator().issues(UpdatePodRequestSchema.$id as string, body);
  const violations = schemaViolations(issues, ROUTES, { rootHint: ROOT_HINT });
  if (isPlainObject(body)) {
    violations.push(...prototypeKeyViolations(own(body, "env"), "/env", "pods.update.unknown-property"));
    violations.push(...mountViolations(body, pod));
    if (own(body, "globalNetworking") === true && pod.kind === "cpu") {
      violations.push({
        ruleId: "pods.update.global-networking-nvidia",
        path: "/globalNetworking",
        message: "globalNetworking is not available on CPU pods; send false or leave it out.",
      });
    }
  }
  if (violations.length > 0) return fail(violations);
  return { ok: true, value: normalize(body as UpdatePodRequest) };
}
