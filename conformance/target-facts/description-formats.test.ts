/**
 * Issue #31, item 1: the open-choice space's `descriptionFormat` (sim/conventions/): a point that
 * serves its description as OpenAPI 3.0 (paths under `servers: /v2`), OpenAPI 3.1 or Swagger 2.0
 * (`basePath: /v2`), in JSON or YAML, where its `description` says. Each answers over a real
 * server in its own format, and discovery reads the same facts from each as from 3.1 in JSON.
 */
import t from "tap";
import { parse as parseYaml } from "yaml";
import { DIMENSIONS, EMULATOR_CONVENTIONS, descriptionPath, type Conventions } from "../../sim/conventions/index.ts";
import { discoverTarget } from "../discover-target.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";

const FORMATS = DIMENSIONS.find((d) => d.id === "descriptionFormat")!.values.map((v) => v.value as Conventions["descriptionFormat"]);
const FACTS = ["podActionPath", "podDeletePath", "podListPath", "gpuCatalogPath", "cpuCatalogPath", "dataCenterCatalogPath", "networkVolumes"] as const;

async function described(conventions: Conventions) {
  const target = await startFamilyTarget({ family: conventions });
  try {
    const res = await fetch(`${target.rest}${descriptionPath(conventions)}`, { headers: { authorization: `Bearer ${target.keys.api}` } });
    const text = await res.text();
    const found = await discoverTarget({ target: target.rest, apiKey: target.keys.api }, { io: { stdout: () => {}, stderr: () => {} } });
    const facts = Object.fromEntries(FACTS.map((f) => [f, [found.facts[f].value, found.facts[f].source]]));
    return { status: res.status, type: res.headers.get("content-type") ?? "", text, facts };
  } finally {
    await target.stop();
  }
}

t.test("every description format is served in its form, and read as the same facts", async (t) => {
  t.ok(FORMATS.length >= 3);
  const base: Conventions = { ...EMULATOR_CONVENTIONS, actions: "verb", gpuPath: "/v2/gpu-types", volumes: "/v2/network-volumes" };
  const reference = await described(base);
  t.equal(reference.facts["podActionPath"]![1], "openapi", "the reference facts come from the description");
  for (const format of FORMATS) {
    const c = { ...base, descriptionFormat: format };
    const got = await described(c);
    t.equal(got.status, 200, `${format}: served at ${descriptionPath(c)}`);
    const yaml = format.endsWith("-yaml");
    t.match(got.type, yaml ? /^application\/yaml/ : /json/, `${format}: its content type`);
    t.equal(got.text.trimStart().startsWith("{"), !yaml, `${format}: ${yaml ? "YAML text" : "JSON"} on the wire`);
    const doc = parseYaml(got.text) as Record<string, any>;
    if (format.startsWith("swagger-")) {
      t.same([doc["swagger"], doc["basePath"]], ["2.0", "/v2"], `${format}: Swagger 2.0 under basePath /v2`);
      t.ok(doc["paths"]["/pods"]?.post?.parameters?.some((p: any) => p.in === "body"), `${format}: the create body a body parameter`);
      t.notOk(JSON.stringify(doc).includes("#/components/"), `${format}: references point into definitions`);
    } else if (format.startsWith("openapi-3.0")) {
      t.same([doc["openapi"], doc["servers"][0].url], ["3.0.3", "/v2"], `${format}: OpenAPI 3.0 under servers /v2`);
      t.notOk(/"type":\[/.test(JSON.stringify(doc)), `${format}: no type arrays (3.0 has nullable)`);
    } else t.equal(doc["openapi"], "3.1.0");
    t.same(got.facts, reference.facts, `${format}: discovery reads the same facts`);
  }
});

t.test("where the description is: the format names the file, the description dimension the place", async (t) => {
  const at = (description: Conventions["description"], descriptionFormat: Conventions["descriptionFormat"]) => descriptionPath({ ...EMULATOR_CONVENTIONS, description, descriptionFormat });
  t.equal(at("openapi-json", "openapi-3.1-json"), "/openapi.json");
  t.equal(at("openapi-json", "openapi-3.0-yaml"), "/openapi.yaml");
  t.equal(at("openapi-json", "swagger-2.0-json"), "/swagger.json");
  t.equal(at("link-header", "swagger-2.0-yaml"), "/api/spec.yaml");
  t.equal(at("well-known", "openapi-3.1-yaml"), "/.well-known/openapi.yaml");
  t.equal(at("none", "openapi-3.1-yaml"), undefined);
});

t.test("a description only at /.well-known/openapi.json (or its .yaml twin) is found among the usual places", async (t) => {
  const base: Conventions = { ...EMULATOR_CONVENTIONS, actions: "verb", gpuPath: "/v2/gpu-types", volumes: "/v2/network-volumes" };
  for (const descriptionFormat of ["openapi-3.1-json", "openapi-3.0-yaml"] as const) {
    const got = await described({ ...base, description: "well-known", descriptionFormat });
    t.equal(got.status, 200, `${descriptionFormat}: served at /.well-known/`);
    t.same(got.facts["podActionPath"], ["/v2/pods/{podId}/{action}", "openapi"], `${descriptionFormat}: the action route read from it`);
  }
});
