// sim/api's validators and generators feeding the registry: every valid createPod body either
// places (and its views validate against sim/api's schemas) or is a typed no-capacity outcome.
import t from "tap";
import fc from "fast-check";
import { Engine, minutes } from "../../core/index.ts";
import { loadCatalog } from "../../catalog/index.ts";
import { createValidator } from "../../api/schemas/index.ts";
import { catalogContext, createPodBodyArb, validateCreatePod, type NormalizedCreatePod, type NormalizedUpdatePod } from "../../api/validate/index.ts";
import { CpuStock, GpuStock } from "../stock/index.ts";
import { podGraphqlView, podRestView, PodRegistry, type PodCreateInput, type PodUpdateInput } from "./index.ts";

// The validators' normalized shapes are what the registry takes (checked by the compiler).
const asCreate = (x: NormalizedCreatePod): PodCreateInput => x;
const asUpdate = (x: NormalizedUpdatePod): PodUpdateInput => x;
void asUpdate;

const catalog = loadCatalog();
const validator = createValidator();

t.test("valid createPod bodies over the bundled catalog: placed with schema-valid views, or no capacity", async (t) => {
  let placed = 0;
  let refused = 0;
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 1e6 }), fc.array(createPodBodyArb(catalog), { minLength: 1, maxLength: 8 }), (seed, bodies) => {
      const engine = new Engine({ seed });
      const gpu = new GpuStock(engine, catalog, engine.rng.fork("stock"), { outsideIntensity: 0.5 });
      const cpu = new CpuStock(catalog);
      // Volumes of any account: the generator does not know which account owns which.
      const pods = new PodRegistry(engine, catalog, engine.rng.fork("pods"), {
        gpu,
        cpu,
        volumeDataCenter: (id) => catalog.networkVolumes.find((v) => v.id === id)?.dataCenterId,
      });
      for (const body of bodies) {
        const valid = validateCreatePod(body, catalogContext(catalog));
        if (!valid.ok) throw new Error(`generator gave an invalid body: ${JSON.stringify(valid)}`);
        const out = pods.create("acct-alpha", asCreate(valid.value));
        if (!out.ok) {
          if (out.code !== "no-capacity") throw new Error(`refused a valid body with ${out.code}: ${out.message}`);
          refused++;
          continue;
        }
        placed++;
        const pod = out.pod;
        const req = valid.value;
        if (req.dataCenterIds.length > 0 && !req.dataCenterIds.includes(pod.dataCenterId)) throw new Error("data center not honoured");
        if (req.cloud !== pod.cloud) throw new Error("cloud not honoured");
        engine.runFor(minutes(2));
        for (const v of [validator.validate("cpsim:Pod", podRestView(pod, engine.now)), validator.validate("cpsim:GraphqlPod", podGraphqlView(pod, engine.now))]) {
          if (!v.ok) throw new Error(v.errors.join("; "));
        }
      }
    }),
    { numRuns: 150 },
  );
  t.ok(placed > 100 && refused > 10, `both outcomes exercised (${placed} placed, ${refused} refused)`);
});
