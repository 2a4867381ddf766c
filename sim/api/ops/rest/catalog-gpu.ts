/**
 * `GET /v2/catalog/gpus/{id}` → one entry of `GET /v2/catalog/gpus` (newer official Python clients
 * call it for get_gpu, with `include`, `product` and `count` query parameters, which the model
 * reads as: `cloud` as on the list; the others are accepted and change nothing). The entry is the
 * SECURE cloud's when the type is offered there, else the COMMUNITY cloud's. An unknown id is 404.
 * With `include=AVAILABILITY` it adds `dataCenters: [{id, availability}]` for `count` GPUs (default
 * 1) in the entry's cloud (see catalog-availability.ts).
 */
import { json } from "../../json-response.ts";
import type { Operation } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import { availabilityIn, countParam, wantsAvailability } from "./catalog-availability.ts";
import { gpuTypeEntries } from "./catalog-gpus.ts";

export const getGpuType: Operation = ({ platform, params, request }) => {
  const id = params.id ?? "";
  const type = platform.catalog.gpuTypes.find((g) => g.id === id);
  if (type === undefined) return respond(problem(404, `No GPU type ${JSON.stringify(id)}; list them with GET /v2/catalog/gpus.`));
  const [entry] = [...gpuTypeEntries([type], platform.gpuStock, "SECURE"), ...gpuTypeEntries([type], platform.gpuStock, "COMMUNITY")];
  if (entry === undefined || !wantsAvailability(request.query)) return respond(json(200, entry));
  const gpuCount = countParam(request.query.count, 1);
  if (gpuCount === undefined) return respond(problem(400, `The query parameter count is ${JSON.stringify(request.query.count)}; send a whole number of GPUs, e.g. count=1.`));
  const ids = platform.catalog.dataCenters.map((d) => d.id);
  const dataCenters = availabilityIn(ids, (dataCenterId) => platform.gpuStock.stockStatus(type.id, { cloud: entry.cloud, dataCenterId, gpuCount }));
  return respond(json(200, { ...entry, dataCenters }));
};
