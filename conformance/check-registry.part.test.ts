import t from "tap";
import { CheckRegistry, checks } from "./check-registry.ts";
import { catalogOf } from "./rule-catalog.ts";

t.test("checks register by rule id, in order, and a duplicate id is an error", async (t) => {
  const registry = new CheckRegistry();
  registry.register("pods.create.unknown-property", () => {}).register("pods.create.name-required", () => {});
  t.same(registry.list().map((c) => c.ruleId), ["pods.create.unknown-property", "pods.create.name-required"]);
  t.throws(() => registry.register("pods.create.unknown-property", () => {}), {
    name: "CheckRegistryError",
    code: "CPSIM_ERR_DUPLICATE_CHECK",
    ruleId: "pods.create.unknown-property",
  });
});

t.test("a rule id must exist in the rule catalog (sim/api/rules)", async (t) => {
  const registry = new CheckRegistry();
  t.throws(() => registry.register("pods.create.unknown-propery", () => {}), {
    code: "CPSIM_ERR_UNKNOWN_RULE",
    message: /"pods\.create\.unknown-propery" is not a rule of the catalog/,
  });
  t.equal(registry.size, 0);
});

t.test("rate-limit rules see 429s raw unless told otherwise", async (t) => {
  const registry = new CheckRegistry();
  registry.register("ratelimit.429-when-spent", () => {});
  registry.register("pods.create.unknown-property", () => {});
  registry.register("ratelimit.headers-present", () => {}, { raw429: false });
  t.equal(registry.get("ratelimit.429-when-spent")?.raw429, true);
  t.equal(registry.get("pods.create.unknown-property")?.raw429, false);
  t.equal(registry.get("ratelimit.headers-present")?.raw429, false);
});

t.test("a registry may use another catalog (the framework's own tests do)", async (t) => {
  const registry = new CheckRegistry(catalogOf([{ id: "self.pass", title: "t", spec: "s", section: "x", source: "spec", severity: "error", kind: "request" }]));
  registry.register("self.pass", () => {});
  t.throws(() => registry.register("pods.create.unknown-property", () => {}), { code: "CPSIM_ERR_UNKNOWN_RULE" });
});

t.test("the suite's registry starts empty: the real checks come later", async (t) => {
  t.equal(checks.size, 0);
});
