/** A data center: where hosts sit, which CUDA versions its hosts run, what storage it offers. */
import { Type, type Static } from "@sinclair/typebox";
import { CudaVersion, Name } from "./common.ts";

export const DataCenterSchema = Type.Object(
  {
    /** The platform's form: country or area, place, number ("US-TX-3", "EUR-IS-1"). */
    id: Type.String({ pattern: "^[A-Z]{2,3}-[A-Z]{2,3}-[0-9]+$" }),
    name: Name,
    /** Continent-level grouping, as the REST catalog reports it ("North America"). */
    region: Name,
    /** Country, as the GraphQL `dataCenters { location }` field reports it. */
    location: Name,
    /** Whether pods here may join the global network (createPod `globalNetworking`). */
    globalNetwork: Type.Boolean(),
    /** CUDA versions of this data center's GPU hosts; every NVIDIA host runs one of them. */
    cudaVersions: Type.Array(CudaVersion, { minItems: 1, uniqueItems: true }),
    /** Network volume kinds offered here; empty when the data center has no network storage. */
    networkVolumeTypes: Type.Array(Name, { uniqueItems: true }),
    compliance: Type.Array(Name, { uniqueItems: true }),
  },
  { additionalProperties: false, title: "DataCenter" },
);

export type DataCenterRecord = Static<typeof DataCenterSchema>;
