/**
 * The catalog reads. Their shapes are choices.md's (the spec names the paths of the CPU and
 * data center catalogs but shows no payload), so the framework runs those three rules only
 * under --profile strict, against the lenient schemas of sim/api/schemas (id and name required,
 * the rest typed when present). `catalog.global-network-field` is the spec's own: eligible data
 * centers say so with `globalNetwork`, of whatever type (global-network-reading.ts), which is
 * checked against what createPod does; its boolean type is judged only under strict.
 */
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { registerCheck } from "../../check-registry.ts";
import { listOf, missingFact } from "../../target-facts/index.ts";
import { schemaErrors } from "../support/schema.ts";
import { refusalCredited } from "../support/refusal-credit.ts";
import { isCapacityRefusal } from "./create-capacity.ts";
import { podField, sendCreate } from "./create-pod-client.ts";
import { gpusInStock, targetCatalog, type TargetCatalog, type TargetDataCenter } from "./create-target-catalog.ts";

async function read(ctx: CheckContext, path: string, query?: Record<string, string>): Promise<ClientResponse> {
  return ctx.client.request({ method: "GET", url: `${ctx.target.rest}${path}`, auth: { key: "api" }, ...(query ? { query } : {}) });
}

/** The failure of one catalog read, or undefined when it is a 200 matching `schema`. */
function shapeProblem(ctx: CheckContext, res: ClientResponse, schema: string): string | undefined {
  const rule = `("${ctx.rule.spec}")`;
  if (res.status !== 200) return `200 with the catalog ${rule}; got HTTP ${res.status}`;
  const errors = schemaErrors(schema, res.json);
  return errors.length === 0 ? undefined : `a body shaped as docs/choices.md gives it ${rule}; ${errors.slice(0, 8).join("; ")}`;
}

function shapeCheck(path: string, schema: string) {
  return async (ctx: CheckContext): Promise<CheckOutcome | undefined> => {
    const res = await read(ctx, path);
    const problem = shapeProblem(ctx, res, schema);
    return problem ? ctx.fail({ expected: problem, exchange: res.exchange }) : undefined;
  };
}

registerCheck("catalog.cpus.shape", shapeCheck("/v2/catalog/cpus", "CpuCatalog"), { needs: { keys: ["api"] } });
registerCheck("catalog.datacenters.shape", shapeCheck("/v2/catalog/datacenters", "DataCenterCatalog"), { needs: { keys: ["api"] } });

const gpuIds = (res: ClientResponse): string[] => {
  const gpus = (res.json as { gpus?: { id?: unknown }[] } | undefined)?.gpus ?? [];
  return gpus.map((g) => String(g.id)).sort();
};

registerCheck(
  "catalog.gpus.shape",
  async (ctx) => {
    const plain = await read(ctx, "/v2/catalog/gpus");
    const secure = await read(ctx, "/v2/catalog/gpus", { cloud: "SECURE" });
    const community = await read(ctx, "/v2/catalog/gpus", { cloud: "COMMUNITY" });
    for (const res of [plain, secure, community]) {
      const problem = shapeProblem(ctx, res, "GpuCatalog");
      if (problem) return ctx.fail({ expected: problem, exchange: res.exchange });
    }
    const [a, b] = [gpuIds(plain), gpuIds(secure)];
    if (a.join("\n") !== b.join("\n")) {
      return ctx.fail({
        expected: `the same GPU types without \`cloud\` as with cloud=SECURE, the default ("${ctx.rule.spec}"); without: ${JSON.stringify(a)}, with SECURE: ${JSON.stringify(b)}`,
        exchange: plain.exchange,
        sequence: [secure.exchange],
      });
    }
    return undefined;
  },
  { needs: { keys: ["api"] } },
);

/** An NVIDIA GPU type with stock, in `dc` when the catalog says what is there. */
function nvidiaFor(tc: TargetCatalog, dc: TargetDataCenter): string | undefined {
  const nvidia = gpusInStock(tc).filter((g) => g.manufacturer.toLowerCase() === "nvidia" && g.offers.SECURE?.inStock !== false);
  return (dc.gpus ? nvidia.find((g) => dc.gpus!.has(g.id)) : nvidia[0])?.id;
}

/** Data centers of each kind tried with a globally networked pod: a few, to keep the pod count low. */
const TRIES_PER_KIND = 2;

registerCheck(
  "catalog.global-network-field",
  async (ctx) => {
    const rule = `("${ctx.rule.spec}")`;
    const path = ctx.facts.dataCenterCatalogPath.value;
    if (path === null) return ctx.skip(missingFact("dataCenterCatalogPath", ctx.facts.dataCenterCatalogPath.evidence));
    const res = await read(ctx, path);
    const list = listOf(res.json, "dataCenters") ?? listOf(res.json);
    if (res.status !== 200 || !Array.isArray(list)) {
      return ctx.skip(`GET ${path} gave no list of data centers (HTTP ${res.status}); its payload is not in the spec`);
    }
    // The spec states no type for the field: only choices.md's boolean, judged under strict.
    if (ctx.options.profile === "strict") {
      for (const entry of list) {
        const value = (entry as { globalNetwork?: unknown } | null)?.globalNetwork;
        if (value !== undefined && typeof value !== "boolean") {
          return ctx.fail({ expected: `\`globalNetwork\` as a boolean on each data center that carries it (docs/choices.md's catalog, strict profile); found ${JSON.stringify(value)}`, exchange: res.exchange });
        }
      }
    }
    // The field must tell the truth both ways: a pod with global networking is created where it
    // says the data center is eligible, and never gets it where it says not (a data center whose
    // value says neither is not judged).
    const tc = await targetCatalog(ctx);
    const eligible = tc.dataCenters.filter((d) => d.globalNetworkReading === "eligible");
    const others = tc.dataCenters.filter((d) => d.globalNetworkReading === "ineligible");
    let tried = 0;
    for (const [dcs, claimed] of [[others, false], [eligible, true]] as const) {
      for (const dc of dcs.filter((d) => nvidiaFor(tc, d) !== undefined).slice(0, TRIES_PER_KIND)) {
        tried++;
        const body = { name: "cpsim-global-network", image: "ubuntu:22.04", gpu: { id: nvidiaFor(tc, dc)! }, dataCenterIds: [dc.id], globalNetworking: true };
        const created = await sendCreate(ctx, { json: body });
        const enabled = (podField(created, "globalNetworking") as { enabled?: unknown } | undefined)?.enabled;
        if (!claimed && created.status >= 200 && created.status < 300 && enabled === true) {
          return ctx.fail({
            expected: `no global networking in ${dc.id}, whose catalog entry does not say it is eligible (\`globalNetwork\`: ${JSON.stringify(dc.globalNetwork)}) ${rule}; the pod got it`,
            exchange: created.exchange,
          });
        }
        if (claimed && created.status >= 400 && created.status < 500 && !isCapacityRefusal(created)) {
          // Blamed on global networking only when the same body without it is taken.
          const { globalNetworking: _gn, ...control } = body;
          const credit = await refusalCredited(ctx, {
            controls: [control], send: (b) => sendCreate(ctx, { json: b }), operation: "createPod",
            accepted: (r) => (r.status >= 200 && r.status < 300) || isCapacityRefusal(r),
          });
          if (!credit.credited) {
            tried--;
            ctx.log(`a pod with global networking in ${dc.id} was refused, but not for global networking: ${credit.why}`);
            continue;
          }
          return ctx.fail({
            expected: `a pod with global networking accepted in ${dc.id}, whose catalog entry says it is eligible (\`globalNetwork\`: ${JSON.stringify(dc.globalNetwork)}) ${rule}; it was refused`,
            exchange: created.exchange,
          });
        }
      }
    }
    if (tried === 0) {
      const why = "no data center whose eligibility its entry states, with an NVIDIA GPU type in stock, could be tried";
      if (ctx.options.profile === "strict") ctx.log(`${why}: only the field's type was checked`);
      else return ctx.skip(`nothing was judged: ${why}`);
    }
    return undefined;
  },
  { needs: { keys: ["api"] } },
);
