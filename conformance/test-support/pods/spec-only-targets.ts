/**
 * Test-only: correct platforms (and one planted defect) that read the spec differently from the
 * emulator where the spec states less than the emulator does, each a breakage around the
 * embedded emulator. The suite must not fail the correct ones (issue #31, item 4), and must not
 * pass the defect for the wrong reason.
 *
 * - globalNetwork as an object, or as a string: "eligible data centers carry a `globalNetwork`
 *   field" states no type.
 * - A GPU catalog that ignores `cloud` and offers every type in the secure cloud only, refusing
 *   any other pairing with 422 naming `/gpu/id`; with `flags` each entry says so
 *   (`secureCloud: true, communityCloud: false`), without, nothing says.
 * - createPod that places a pod wherever it likes: `dataCenterIds` are only "Preferred".
 * - A CPU catalog of one flavor whose vCPU counts are 4 and 16 only (not contiguous), stated as
 *   `vcpuCounts` (`readable`) or in words the suite cannot read, refusing any other count with
 *   422 naming `/cpu/vcpuCount`, and (the planted defect) accepting a body with both `gpu` and
 *   `cpu` as a GPU pod.
 */
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { editResponse, isCreatePod, type Breakage } from "./create-test-target.ts";

type Obj = Record<string, any>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export function unprocessable(detail: string, errors: string[]): ApiResponse {
  return { status: 422, headers: { "content-type": "application/problem+json" }, body: { type: "about:blank", title: "Unprocessable Entity", status: 422, detail, errors } };
}

const isDataCenters = (r: ApiRequest) => r.method === "GET" && r.path === "/v2/catalog/datacenters";

/** Each data center's `globalNetwork` rewritten by `as` (undefined: the field left out). */
export function globalNetworkAs(as: (eligible: boolean) => unknown): Breakage {
  return editResponse((request, response) => {
    if (!isDataCenters(request) || !isObj(response.body) || !Array.isArray(response.body.dataCenters)) return response;
    const dataCenters = response.body.dataCenters.map((dc: Obj) => {
      const { globalNetwork, ...rest } = dc;
      const value = as(globalNetwork === true);
      return value === undefined ? rest : { ...rest, globalNetwork: value };
    });
    return { ...response, body: { ...response.body, dataCenters } };
  });
}

/** Every GPU type offered in the secure cloud only; the catalog ignores `cloud`. */
export function secureOnlyGpus(flags: boolean): Breakage {
  return (request, next) => {
    if (request.method === "GET" && request.path === "/v2/catalog/gpus") {
      const out = next({ ...request, query: { ...request.query, cloud: "SECURE" } });
      if (out.kind !== "response" || !isObj(out.response.body) || !Array.isArray(out.response.body.gpus)) return out;
      const gpus = out.response.body.gpus.map(({ cloud: _c, ...g }: Obj) => (flags ? { ...g, secureCloud: true, communityCloud: false } : g));
      return { kind: "response", response: { ...out.response, body: { gpus } } };
    }
    if (isCreatePod(request) && isObj(request.body) && isObj(request.body.gpu) && request.body.cloud === "COMMUNITY") {
      const id = String(request.body.gpu.id);
      return { kind: "response", response: unprocessable(`GPU type ${id} is not offered in the COMMUNITY cloud`, [`/gpu/id: ${id} is not offered in the COMMUNITY cloud`]) };
    }
    return next(request);
  };
}

/** createPod places the pod where the scheduler likes, whatever `dataCenterIds` prefers. */
export const placedAnywhere: Breakage = (request, next) => {
  if (!isCreatePod(request) || !isObj(request.body) || !Array.isArray(request.body.dataCenterIds)) return next(request);
  const { dataCenterIds: _preferred, ...body } = request.body;
  return next({ ...request, body });
};

export const ODD_FLAVOR = "cpu3c";
export const ODD_COUNTS: readonly number[] = [4, 16];

/** One flavor with vCPU counts 4 and 16 only; a body with both gpu and cpu is taken as a GPU pod (the defect). */
export function oddFlavorBothAccepted(readable: boolean): Breakage {
  return (request, next) => {
    if (request.method === "GET" && request.path === "/v2/catalog/cpus") {
      const entry = { id: ODD_FLAVOR, name: "Compute", ...(readable ? { vcpuCounts: [...ODD_COUNTS] } : { sizes: "4 or 16 vCPUs" }), ramGbPerVcpu: 2 };
      return { kind: "response", response: { status: 200, headers: { "content-type": "application/json" }, body: { cpus: [entry] } } };
    }
    if (isCreatePod(request) && isObj(request.body) && isObj(request.body.cpu)) {
      const cpu = request.body.cpu;
      if (cpu.id !== ODD_FLAVOR) return { kind: "response", response: unprocessable(`no CPU flavor ${JSON.stringify(cpu.id)}`, ["/cpu/id: no such flavor"]) };
      if (Number.isInteger(cpu.vcpuCount) && cpu.vcpuCount >= 2 && !ODD_COUNTS.includes(cpu.vcpuCount)) {
        return { kind: "response", response: unprocessable(`flavor ${ODD_FLAVOR} offers 4 or 16 vCPUs`, [`/cpu/vcpuCount: ${cpu.vcpuCount} is not offered by ${ODD_FLAVOR}`]) };
      }
      if (isObj(request.body.gpu)) {
        const { cpu: _dropped, ...body } = request.body;
        return next({ ...request, body });
      }
    }
    return next(request);
  };
}
