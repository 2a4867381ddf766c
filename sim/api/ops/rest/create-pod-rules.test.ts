// Every createPod rule family through the operation: a valid body (several shapes) broken by
// exactly that rule with `breakRule` gets the rule's status, a problem+json whose `errors` carry
// the rule's own sentence, and creates nothing.
import t from "tap";
import { ruleById, type RuleId } from "../../rules/index.ts";
import type { CreatePodRequest } from "../../schemas/index.ts";
import { breakRule, createPodBreakers, validateCreatePod, type ArbitraryCatalog } from "../../validate/index.ts";
import { createPodContext } from "./create-pod-context.ts";
import { bundledCatalog, cpuPodBody, gpuPodBody, harness, problemErrors, schemaErrors } from "./test-api.ts";

const catalog = bundledCatalog();
/** What the breakers may draw on: the whole catalog, but only alpha's network volumes. */
const alphaCatalog: ArbitraryCatalog = {
  gpuTypes: catalog.gpuTypes,
  cpuFlavors: catalog.cpuFlavors,
  networkVolumes: catalog.networkVolumes.filter((v) => v.accountId === "acct-alpha"),
  dataCenters: catalog.dataCenters,
  registries: catalog.registries.filter((r) => r.accountId === "acct-alpha"),
};

/** The words that make each rule's sentence that rule's, whichever base body it broke. */
const RULE_WORDS: Readonly<Record<string, RegExp>> = {
  "pods.create.unknown-property": /does not accept the property "gpuCount"/,
  "pods.create.field-type": /^args must be a string/,
  "pods.create.name-required": /^name is missing/,
  "pods.create.name-min-length": /^name is empty/,
  "pods.create.image-required": /^image is missing/,
  "pods.create.disk-minimum": /^disk is 0, below the minimum of 1/,
  "pods.create.port-format": /^ports\[0\] is .*not of the required form/,
  "pods.create.env-string-values": /^env\.PORT must be a string/,
  "pods.create.cloud-enum": /^cloud is "PRIVATE", which is not one of "SECURE", "COMMUNITY"/,
  "pods.create.gpu-id-required": /^gpu\.id is missing/,
  "pods.create.gpu-count-minimum": /^gpu\.count is 0, below the minimum of 1/,
  "pods.create.cpu-id-required": /^cpu\.id is missing/,
  "pods.create.cpu-id-min-length": /^cpu\.id is empty/,
  "pods.create.vcpu-count-required": /^cpu\.vcpuCount is missing/,
  "pods.create.vcpu-minimum": /^cpu\.vcpuCount is 1, below the minimum of 2/,
  "pods.create.network-max-items": /^mounts\.network has 2 entries but at most 1/,
  "pods.create.persistent-size-minimum": /^mounts\.persistent\.size is 5, below the minimum of 10/,
  "pods.create.mount-entry-incomplete": /^mounts\.persistent\.(size|path) is missing/,
  "pods.create.gpu-cpu-exclusive": /sets (both gpu and cpu|neither gpu nor cpu); send exactly one/,
  "pods.create.persistent-on-cpu": /^mounts\.persistent is not available on CPU pods/,
  "pods.create.mounts-exclusive": /^mounts sets both persistent and network/,
  "pods.create.network-empty-array": /^mounts\.network is an empty array/,
  "pods.create.vcpu-power-of-two": /^cpu\.vcpuCount is \d+, which is not a power of two/,
  "pods.create.vcpu-valid-for-flavor": /^cpu\.vcpuCount is \d+, which the flavor "cpu\w+" does not offer/,
  "pods.create.unknown-gpu-type": /is not a GPU type of the catalog/,
  "pods.create.unknown-cpu-flavor": /^cpu\.id "cpu-no-such-flavor" is not a CPU flavor of the catalog/,
  "pods.create.unknown-network-volume": /"vol-no-such-volume" is not an existing network volume/,
  "pods.create.unknown-registry": /^registry "reg-no-such-registry" is not one of your container registry credentials/,
  "pods.create.network-volume-data-center": /^The network volume "vol-alpha-\w+" is in [A-Z-0-9]+, which dataCenterIds does not include/,
  "pods.create.unknown-data-center": /"XX-NOWHERE-0" is not a data center of the catalog/,
  "pods.create.global-networking-nvidia": /^globalNetworking needs an NVIDIA GPU/,
  "pods.create.global-networking-data-center": /^globalNetworking needs a data center that supports it/,
};

/** Valid bodies of several shapes, each accepted by the operation on a fresh platform. */
const BASES: Record<string, Record<string, unknown>> = {
  gpu: gpuPodBody(),
  cpu: cpuPodBody(),
  "gpu with a network volume and global networking": gpuPodBody({
    mounts: { network: [{ volumeId: "vol-alpha-euro1", path: "/workspace" }] },
    dataCenterIds: ["EU-RO-1"],
    globalNetworking: true,
  }),
  "gpu with a persistent mount and every container field": gpuPodBody({
    mounts: { persistent: { size: 20, path: "/workspace" } },
    args: "sleep infinity",
    disk: 30,
    ports: ["8888/http", "22/tcp"],
    env: { A: "1" },
    registry: null,
    cloud: "COMMUNITY",
  }),
  "cpu with a network volume": cpuPodBody({ mounts: { network: [{ volumeId: "vol-alpha-usks2", path: "/data" }] }, dataCenterIds: [] }),
};

t.test("each base body is accepted (201)", async (t) => {
  for (const [name, body] of Object.entries(BASES)) {
    const res = harness().call("POST", "/v2/pods", { body });
    t.equal(res.status, 201, `${name}: ${JSON.stringify(res.body)}`);
    t.same(schemaErrors("cpsim:Pod", res.body), [], name);
  }
});

t.test("every createPod rule has a breaker and a sentence to look for", async (t) => {
  t.same(Object.keys(createPodBreakers).sort(), Object.keys(RULE_WORDS).sort());
});

for (const ruleId of Object.keys(createPodBreakers) as RuleId[]) {
  t.test(ruleId, async (t) => {
    const status = ruleById(ruleId).status;
    let exercised = 0;
    for (const [name, base] of Object.entries(BASES)) {
      const broken = breakRule(ruleId, base as CreatePodRequest, alphaCatalog);
      if (broken === undefined) continue;
      exercised++;
      const h = harness();
      const res = h.call("POST", "/v2/pods", { body: broken });
      t.same(problemErrors(res, status!), [], `${name}: status ${status}`);
      const errors: string[] = (res.body as { errors?: string[] }).errors ?? [];
      // The operation's errors are the validator's sentences for this body, and one is this rule's.
      const expected = validateCreatePod(broken, createPodContext(catalog, "acct-alpha"));
      if (expected.ok) throw new Error(`${ruleId}: the validator accepts ${JSON.stringify(broken)}`);
      const own = expected.violations.filter((v) => v.ruleId === ruleId).map((v) => v.message);
      t.ok(own.length > 0, `${name}: the validator names ${ruleId}`);
      for (const message of own) {
        t.ok(errors.includes(message), `${name}: errors carry the rule's sentence`);
        t.match(message, RULE_WORDS[ruleId]!, `${name}: the sentence is the rule's own`);
      }
      t.same(h.platform.pods.list("acct-alpha"), [], `${name}: nothing was created`);
    }
    t.ok(exercised >= 1, `${ruleId} broken from ${exercised} base bodies`);
  });
}
