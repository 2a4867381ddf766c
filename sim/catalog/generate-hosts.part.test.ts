import t from "tap";
import { generateHosts, renderHostsFile, HOST_PLAN } from "./generate-hosts.ts";
import { loadCatalog } from "./load-catalog.ts";
import { bundledText } from "./test-files.ts";

t.test("the committed hosts.json is exactly what the plan generates", async (t) => {
  const { dataCenters } = loadCatalog();
  // On failure: run `node --import tsx sim/catalog/generate-hosts.ts` and review the diff.
  t.equal(renderHostsFile(generateHosts(dataCenters)), bundledText("hosts.json"));
});

t.test("every data center of the plan exists, and host ids are unique", async (t) => {
  const { dataCenters } = loadCatalog();
  const hosts = generateHosts(dataCenters);
  t.equal(new Set(hosts.map((h) => h.id)).size, hosts.length);
  t.same(new Set(hosts.map((h) => h.dataCenterId)), new Set(Object.keys(HOST_PLAN)));
});

t.test("a plan naming an unknown data center, or a GPU no version of it can run, is refused", async (t) => {
  t.throws(() => generateHosts([], { "XX-YY-1": { gpu: [], cpu: [] } }), /XX-YY-1/);
  t.throws(() => generateHosts([{ id: "US-CA-2", cudaVersions: ["12.4"] }], { "US-CA-2": { gpu: [["5090", "C", 8, 1]], cpu: [] } }), /12\.8/);
});
