import t from "tap";
import fc from "fast-check";
import { validateCatalog } from "./validate-catalog.ts";
import { CatalogError } from "./catalog-error.ts";
import { RESERVED_ENDPOINT_IDS } from "./reserved-endpoint-ids.ts";
import { bundledFiles, type Files } from "./test-files.ts";

const DIR = "fixtures/catalog";

/** The CatalogError validateCatalog raises for files changed by `mutate`. */
function errorFor(mutate: (files: Files) => void): CatalogError {
  const files = bundledFiles();
  mutate(files);
  try {
    validateCatalog(files, DIR);
  } catch (e) {
    if (e instanceof CatalogError) return e;
    throw e;
  }
  throw new Error("the catalog was accepted");
}

function hostIndex(files: Files, kind: "gpu" | "cpu"): number {
  return (files["hosts.json"].hosts as { kind: string }[]).findIndex((h) => h.kind === kind);
}

t.test("the bundled files are accepted, and the result is a frozen copy", async (t) => {
  const files = bundledFiles();
  const catalog = validateCatalog(files, DIR);
  t.ok(Object.isFrozen(catalog) && Object.isFrozen(catalog.hosts) && Object.isFrozen(catalog.accounts[0].keys[0]));
  t.notOk(Object.isFrozen(files["hosts.json"].hosts[0]), "the caller's objects are left alone");
  t.equal(catalog.hosts.length, files["hosts.json"].hosts.length);
});

t.test("the error is typed and carries every issue", async (t) => {
  const e = errorFor((f) => {
    f["hosts.json"].hosts[3].gpuCount = "eight";
    f["gpu-types.json"].gpuTypes[0].memoryInGb = -1;
  });
  t.equal(e.name, "CatalogError");
  t.equal(e.code, "CPSIM_ERR_FIXTURE");
  t.equal(e.issues.length, 2);
  t.same(e.issues.find((i) => i.file.endsWith("hosts.json")), { file: `${DIR}/hosts.json`, pointer: "/hosts/3/gpuCount", message: 'must be integer >= 1, got "eight"' });
  t.equal(e.message.split("\n").length, 2, "one line per issue");
});

t.test("wrong type: names file, pointer, expectation and value", async (t) => {
  const i = hostIndex(bundledFiles(), "gpu");
  t.match(errorFor((f) => (f["hosts.json"].hosts[i].gpuCount = "eight")).message, `${DIR}/hosts.json: /hosts/${i}/gpuCount: must be integer >= 1, got "eight"`);
  t.match(errorFor((f) => (f["gpu-types.json"].gpuTypes[2].securePrice = "cheap")).message, `${DIR}/gpu-types.json: /gpuTypes/2/securePrice: must be number >= 0 or null, got "cheap"`);
  t.match(errorFor((f) => (f["hosts.json"].hosts[0].cloud = "PRIVATE")).message, `/hosts/0/cloud: must be one of "SECURE", "COMMUNITY", got "PRIVATE"`);
  t.match(errorFor((f) => (f["cpu-flavors.json"].cpuFlavors[0].vcpuCounts = [2, 3])).message, `/cpuFlavors/0/vcpuCounts/1: must be one of 2, 4, 8, 16, 32, 64, 128, got 3`);
  t.match(errorFor((f) => (f["hosts.json"].hosts[0].kind = "tpu")).message, `/hosts/0/kind: must be one of "gpu", "cpu", got "tpu"`);
  t.match(errorFor((f) => (f["templates.json"].templates[0].env = { A: 1 })).message, `/templates/0/env/A: must be string, got 1`);
  t.match(errorFor((f) => (f["accounts.json"] = [])).message, `${DIR}/accounts.json: (root): must be object with property "accounts", got []`);
});

t.test("missing required property: names its pointer and what belongs there", async (t) => {
  const gpu = hostIndex(bundledFiles(), "gpu");
  t.match(errorFor((f) => delete f["hosts.json"].hosts[gpu].gpuCount).message, `${DIR}/hosts.json: /hosts/${gpu}/gpuCount: required property is missing; must be integer >= 1`);
  t.match(errorFor((f) => delete f["hosts.json"].hosts[gpu].kind).message, `/hosts/${gpu}/kind: required property is missing; must be one of "gpu", "cpu"`);
  t.match(errorFor((f) => delete f["endpoints.json"].endpoints).message, `${DIR}/endpoints.json: /endpoints: required property is missing; must be array of Endpoint objects`);
});

t.test("unknown property: names it and lists the allowed ones", async (t) => {
  const cpu = hostIndex(bundledFiles(), "cpu");
  const e = errorFor((f) => (f["hosts.json"].hosts[cpu].gpuCount = 8));
  t.match(e.message, `${DIR}/hosts.json: /hosts/${cpu}/gpuCount: is not a property of a CpuHost (allowed: id, kind, dataCenterId, cloud, cpuFlavorIds, vcpuCount, memoryInGb)`);
  t.match(errorFor((f) => (f["accounts.json"].extra = true)).message, `${DIR}/accounts.json: /extra: is not a property of this object (allowed: $comment, accounts)`);
});

t.test("missing and unknown files", async (t) => {
  t.match(errorFor((f) => delete f["registries.json"]).message, `${DIR}/registries.json: file is missing`);
  t.match(errorFor((f) => (f["registry.json"] = {})).message, `${DIR}/registry.json: is not a catalog file`);
});

t.test("broken cross-references", async (t) => {
  const files = bundledFiles();
  const gpu = hostIndex(files, "gpu");
  const cpu = hostIndex(files, "cpu");
  const cases: [string, (f: Files) => void, string][] = [
    ["host data center", (f) => (f["hosts.json"].hosts[gpu].dataCenterId = "US-XX-9"), `hosts.json: /hosts/${gpu}/dataCenterId: must be the id of a data center in data-centers.json, got "US-XX-9"`],
    ["host GPU type", (f) => (f["hosts.json"].hosts[gpu].gpuTypeId = "NVIDIA GeForce RTX 9999"), `hosts.json: /hosts/${gpu}/gpuTypeId: must be the id of a GPU type in gpu-types.json, got "NVIDIA GeForce RTX 9999"`],
    ["host CUDA version", (f) => (f["hosts.json"].hosts[gpu].cudaVersion = "10.2"), `hosts.json: /hosts/${gpu}/cudaVersion: must be one of the CUDA versions of`],
    ["host CPU flavor", (f) => (f["hosts.json"].hosts[cpu].cpuFlavorIds = ["cpu9x"]), `hosts.json: /hosts/${cpu}/cpuFlavorIds/0: must be the id of a CPU flavor in cpu-flavors.json, got "cpu9x"`],
    ["host cloud not offered", (f) => {
      const h = f["hosts.json"].hosts[gpu];
      h.cloud = "SECURE";
      h.gpuTypeId = "NVIDIA GeForce RTX 3080";
    }, `hosts.json: /hosts/${gpu}/cloud: must be a cloud that offers NVIDIA GeForce RTX 3080, got "SECURE"`],
    ["host too many GPUs", (f) => (f["hosts.json"].hosts[gpu].gpuCount = 12), `hosts.json: /hosts/${gpu}/gpuCount: must be at most 8 (maxGpuCount of`],
    ["flavor not offered in the host's data center", (f) => {
      const h = f["hosts.json"].hosts.find((x: { kind: string; dataCenterId: string }) => x.kind === "cpu" && x.dataCenterId === "CA-MTL-1");
      h.cpuFlavorIds = ["cpu5c"];
    }, `must be a CPU flavor offered in CA-MTL-1, got "cpu5c"`],
    ["flavor data center", (f) => f["cpu-flavors.json"].cpuFlavors[0].dataCenterIds.push("XX-YY-1"), `cpu-flavors.json: /cpuFlavors/0/dataCenterIds/6: must be the id of a data center in data-centers.json, got "XX-YY-1"`],
    ["volume account", (f) => (f["network-volumes.json"].networkVolumes[0].accountId = "acct-nobody"), `network-volumes.json: /networkVolumes/0/accountId: must be the id of an account in accounts.json, got "acct-nobody"`],
    ["volume data center", (f) => (f["network-volumes.json"].networkVolumes[0].dataCenterId = "XX-YY-1"), `network-volumes.json: /networkVolumes/0/dataCenterId: must be the id of a data center in data-centers.json, got "XX-YY-1"`],
    ["volume where there is no network storage", (f) => (f["network-volumes.json"].networkVolumes[0].dataCenterId = "AP-JP-1"), `/networkVolumes/0/dataCenterId: must be a data center that offers network volumes, got "AP-JP-1"`],
    ["endpoint account", (f) => (f["endpoints.json"].endpoints[3].accountId = "acct-nobody"), `endpoints.json: /endpoints/3/accountId: must be the id of an account in accounts.json, got "acct-nobody"`],
    ["endpoint GPU type", (f) => (f["endpoints.json"].endpoints[0].gpuTypeIds = ["NVIDIA RTX A5000", "NVIDIA B200"]), `endpoints.json: /endpoints/0/gpuTypeIds/1: must be the id of a GPU type in gpu-types.json, got "NVIDIA B200"`],
    ["template registry", (f) => (f["templates.json"].templates[4].registry = "reg-beta-ecr"), `templates.json: /templates/4/registry: must be a registry of the template's account (acct-alpha), got "reg-beta-ecr" of acct-beta`],
    ["registry account", (f) => (f["registries.json"].registries[0].accountId = "acct-nobody"), `registries.json: /registries/0/accountId: must be the id of an account in accounts.json`],
  ];
  for (const [name, mutate, expected] of cases) {
    const e = errorFor(mutate);
    t.match(e.message, expected, name);
    t.match(e.message, `${DIR}/`, `${name}: names the file with its directory`);
  }
});

t.test("duplicates", async (t) => {
  t.match(errorFor((f) => (f["hosts.json"].hosts[5].id = f["hosts.json"].hosts[2].id)).message, /hosts\.json: \/hosts\/5\/id: must be a unique id in hosts\.json, got "[^"]+" \(also at \/hosts\/2\/id\)/);
  t.match(errorFor((f) => (f["gpu-types.json"].gpuTypes[1].id = f["gpu-types.json"].gpuTypes[0].id)).message, "gpu-types.json: /gpuTypes/1/id: must be a unique id in gpu-types.json");
  t.match(
    errorFor((f) => (f["accounts.json"].accounts[1].keys[0].key = f["accounts.json"].accounts[0].keys[0].key)).message,
    "accounts.json: /accounts/1/keys/0/key: must be a unique API key across accounts",
  );
  t.match(errorFor((f) => (f["endpoints.json"].endpoints[1].slug = "conformance")).message, 'endpoints.json: /endpoints/1/slug: must be a unique endpoint id or model slug (they share the job URL path), got "conformance" (also at /endpoints/0/id)');
});

t.test("reserved endpoint ids and slugs", async (t) => {
  for (const name of RESERVED_ENDPOINT_IDS) {
    const id = errorFor((f) => (f["endpoints.json"].endpoints[3].id = name)).message;
    // `_sim` already fails the path-segment pattern; the rest reach the reserved-name check.
    t.match(id, name === "_sim" ? `/endpoints/3/id: must be string matching` : `/endpoints/3/id: must not be a reserved path segment (pods, catalog,`, name);
    t.match(id, JSON.stringify(name));
  }
  t.match(errorFor((f) => (f["endpoints.json"].endpoints[1].slug = "graphql")).message, `${DIR}/endpoints.json: /endpoints/1/slug: must not be a reserved path segment`);
});

t.test("rules within a record", async (t) => {
  t.match(errorFor((f) => (f["gpu-types.json"].gpuTypes[3].securePrice = 0.3)).message, "gpu-types.json: /gpuTypes/3/securePrice: must be null when secureCloud is false, got 0.3");
  t.match(errorFor((f) => (f["gpu-types.json"].gpuTypes[0].communityPrice = null)).message, "/gpuTypes/0/communityPrice: must be a price when communityCloud is true, got null");
  t.match(errorFor((f) => (f["gpu-types.json"].gpuTypes[0].secureSpotPrice = 5)).message, "/gpuTypes/0/secureSpotPrice: must be at most securePrice");
  t.match(errorFor((f) => (f["accounts.json"].accounts[1].rateLimits.hour = 10)).message, "accounts.json: /accounts/1/rateLimits/hour: must be at least the minute quota (60), got 10");
  t.match(errorFor((f) => (f["accounts.json"].accounts[0].rateLimits = null)).message, '/accounts/0/keys/0/access: must be "exempt" on an account without rateLimits, got "full"');
  t.match(errorFor((f) => (f["endpoints.json"].endpoints[0].workersMin = 5)).message, "/endpoints/0/workersMin: must be at most workersMax (3), got 5");
  t.match(errorFor((f) => (f["endpoints.json"].endpoints[1].slug = null)).message, "/endpoints/1/slug: must be a model slug on a public endpoint, got null");
  t.match(errorFor((f) => (f["endpoints.json"].endpoints[3].slug = "my-model")).message, '/endpoints/3/slug: must be null on a private endpoint, got "my-model"');
  t.match(errorFor((f) => (f["hosts.json"].hosts.find((h: { gpuTypeId?: string }) => h.gpuTypeId === "AMD Instinct MI300X OAM").cudaVersion = "12.4")).message, 'must be null on an AMD host, got "12.4"');
});

/** Every pointer into `value` (objects and arrays included), with the value found there. */
function allPointers(value: unknown, at = ""): [string, unknown][] {
  const children =
    Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : value !== null && typeof value === "object" ? Object.entries(value) : [];
  return [[at, value], ...children.flatMap(([k, v]) => allPointers(v, `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`))];
}

const files = bundledFiles();
const locations = Object.entries(files).flatMap(([file, doc]) => allPointers(doc).map(([pointer, value]) => ({ file, pointer, value })));

t.test("property: deleting any required property is reported at its pointer", async (t) => {
  // Every property of every record is required; `$comment` and the keys of `env` maps are free.
  const deletable = locations.filter(({ pointer }) => /\/[^/]+\/[0-9]+\//.test(pointer) && !/\/env\/[^/]+$/.test(pointer) && !/\/[0-9]+$/.test(pointer));
  t.ok(deletable.length > 1000);
  fc.assert(
    fc.property(fc.constantFrom(...deletable), ({ file, pointer }) => {
      const e = errorFor((f) => {
        const tokens = pointer.split("/").slice(1);
        const last = tokens.pop() as string;
        const parent = tokens.reduce((node, k) => node[k], f[file]);
        delete parent[last];
      });
      return e.issues.some((i) => i.file === `${DIR}/${file}` && i.pointer === pointer && i.message.startsWith("required property is missing; must be "));
    }),
    { numRuns: 300 },
  );
});

t.test("property: a value of the wrong type anywhere is reported at its pointer", async (t) => {
  // No scalar position of the catalog accepts an array, so replacing one always breaks the file.
  const scalars = locations.filter(({ value }) => value === null || typeof value !== "object");
  fc.assert(
    fc.property(fc.constantFrom(...scalars), ({ file, pointer }) => {
      const e = errorFor((f) => {
        const tokens = pointer.split("/").slice(1);
        const last = tokens.pop() as string;
        const parent = tokens.reduce((node, k) => node[k], f[file]);
        parent[last] = [];
      });
      return e.issues.some((i) => i.file === `${DIR}/${file}` && i.pointer === pointer && / must be .*, got \[\]$|^must be .*, got \[\]$/.test(i.message));
    }),
    { numRuns: 300 },
  );
});
