/**
 * What an accepted createPod answers: 201 carrying the pod asked for, in PROVISIONING, with
 * every required field typed as the spec says, and the defaults the spec gives (cloud SECURE,
 * gpu count 1, global networking off, a CPU pod's memory derived from its flavor).
 */
import { POD_REQUIRED_FIELDS } from "../../../sim/api/schemas/pod.ts";
import { registerCheck } from "../../check-registry.ts";
import { schemaErrors } from "../support/schema.ts";
import { fewRuns } from "./create-property.ts";
import { sampleCreates, type Judged } from "./create-sample.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const pod = (j: Judged): Obj => (isObj(j.res.json) ? j.res.json : {});
const show = (v: unknown): string => (v === undefined ? "nothing" : JSON.stringify(v));

/** An image as sent, or the same reference with the registry's default prefix made explicit. */
function sameImage(sent: string, got: unknown): boolean {
  return typeof got === "string" && (got === sent || got === `docker.io/${sent}` || got === `docker.io/library/${sent}`);
}

/** How the pod in a 201 differs from the one asked for. */
function differences(j: Judged): string[] {
  const body = j.body as Obj;
  const p = pod(j);
  const out: string[] = [];
  if (p.name !== body.name) out.push(`name ${show(p.name)} instead of ${show(body.name)}`);
  if (!sameImage(body.image as string, p.image)) out.push(`image ${show(p.image)} instead of ${show(body.image)}`);
  for (const field of ["disk", "args", "cloud"] as const) {
    if (body[field] !== undefined && p[field] !== body[field]) out.push(`${field} ${show(p[field])} instead of ${show(body[field])}`);
  }
  if (isObj(body.gpu)) {
    const gpu = isObj(p.gpu) ? p.gpu : undefined;
    if (gpu?.id !== body.gpu.id) out.push(`gpu.id ${show(gpu?.id)} instead of ${show(body.gpu.id)}`);
    const count = body.gpu.count ?? 1;
    if (gpu?.count !== undefined && gpu.count !== count) out.push(`gpu.count ${show(gpu.count)} instead of ${count}`);
  }
  if (isObj(body.cpu)) {
    const cpu = isObj(p.cpu) ? p.cpu : undefined;
    if (cpu?.id !== body.cpu.id) out.push(`cpu.id ${show(cpu?.id)} instead of ${show(body.cpu.id)}`);
    if (cpu?.vcpuCount !== body.cpu.vcpuCount) out.push(`cpu.vcpuCount ${show(cpu?.vcpuCount)} instead of ${show(body.cpu.vcpuCount)}`);
  }
  // The platform may add variables and ports of its own; the ones asked for must be there.
  if (isObj(body.env)) {
    const env = isObj(p.env) ? p.env : {};
    for (const [k, v] of Object.entries(body.env)) if (env[k] !== v) out.push(`env.${k} ${show(env[k])} instead of ${show(v)}`);
  }
  if (Array.isArray(body.ports)) {
    const ports = Array.isArray(p.ports) ? p.ports : [];
    for (const port of body.ports) if (!ports.includes(port)) out.push(`ports without ${show(port)}`);
  }
  return out;
}

registerCheck(
  "pods.create.created-201",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 12), judgeRefusals: true }, (j) => {
      const expected = "201 with the pod asked for (\"createPod accepted | valid request | PROVISIONING | Response 201 carries the pod\")";
      if (j.res.status !== 201) return `${expected} for a valid body (a refusal for capacity aside); got HTTP ${j.res.status}`;
      if (!isObj(j.res.json)) return `${expected}; the body is not a JSON object`;
      const diff = differences(j);
      return diff.length > 0 ? `${expected}; the pod has ${diff.join(", ")}` : undefined;
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "pods.create.status-provisioning",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 5) }, (j) => {
      const status = pod(j).status;
      return status === "PROVISIONING" ? undefined : `the created pod's status PROVISIONING ("Each created pod starts in \`PROVISIONING\`"); got ${show(status)}`;
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "pods.create.response-required-fields",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 6) }, (j) => {
      const p = pod(j);
      const missing = POD_REQUIRED_FIELDS.filter((f) => !Object.hasOwn(p, f));
      const errors = schemaErrors("Pod", j.res.json).slice(0, 8);
      if (missing.length === 0 && errors.length === 0) return undefined;
      return [
        `every field the spec requires in the Pod, typed as its table says ("${ctx.rule.spec}")`,
        missing.length > 0 ? `missing: ${missing.join(", ")}` : "",
        errors.length > 0 ? `schema: ${errors.join("; ")}` : "",
      ]
        .filter(Boolean)
        .join("; ");
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "pods.create.default-cloud",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 5), omit: ["cloud"], explicitDefault: { body: (b) => ({ ...b, cloud: "SECURE" }), expected: "a body that names no cloud read as `cloud: SECURE` (\"cloud | Cloud | no | Default `SECURE`\")" } }, (j) => {
      const cloud = pod(j).cloud;
      return cloud === "SECURE" ? undefined : `cloud SECURE for a body that names none ("cloud | Cloud | no | Default \`SECURE\`"); got ${show(cloud)}`;
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "pods.create.default-gpu-count",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 5), kind: "gpu", omit: ["count"] }, (j) => {
      // A response may leave `count` out (it is optional in GpuConfig); when it says, it says 1.
      const gpu = pod(j).gpu;
      const count = isObj(gpu) ? gpu.count : undefined;
      if (!isObj(gpu)) return `a GPU pod with gpu.count 1 for a body that sends gpu without count ("count | integer, minimum 1 | no | Default 1"); the pod has no gpu object`;
      return count === undefined || count === 1 ? undefined : `gpu.count 1 for a body that sends gpu without count ("count | integer, minimum 1 | no | Default 1"); got ${show(count)}`;
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "pods.create.default-global-networking",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 5), omit: ["globalNetworking"] }, (j) => {
      const gn = pod(j).globalNetworking;
      const enabled = isObj(gn) ? gn.enabled : undefined;
      return enabled === false ? undefined : `globalNetworking.enabled false for a body without globalNetworking ("globalNetworking | boolean | no | Default false"); got globalNetworking ${show(gn)}`;
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "pods.create.cpu-memory-derived",
  (ctx) =>
    sampleCreates(ctx, { numRuns: fewRuns(ctx, 5), kind: "cpu" }, (j) => {
      const body = j.body as { cpu: { id: string; vcpuCount: number } };
      const cpu = pod(j).cpu;
      const memory = isObj(cpu) ? cpu.memory : undefined;
      const ram = j.tc.flavors.find((f) => f.id === body.cpu.id)?.ramGbPerVcpu;
      const rule = `("${ctx.rule.spec}")`;
      if (!Number.isInteger(memory) || (memory as number) < 1) return `cpu.memory, an integer of at least 1 GB derived by the service ${rule}; got cpu ${show(cpu)}`;
      if (ram !== undefined && memory !== body.cpu.vcpuCount * ram) {
        return `cpu.memory ${body.cpu.vcpuCount * ram} GB: ${body.cpu.vcpuCount} vCPUs times the flavor's ${ram} GB per vCPU (GET /v2/catalog/cpus) ${rule}; got ${show(memory)}`;
      }
      return undefined;
    }),
  { needs: { keys: ["api"] } },
);
