/**
 * `__proto__`, `constructor` and `prototype` in a body are refused as unknown properties,
 * wherever they sit, and never reach an object's prototype. Bodies are built with JSON.parse,
 * as they arrive from the wire, where `__proto__` is an ordinary own key.
 */
import t from "tap";
import { catalogContext, sampleCatalog } from "./sample-catalog.ts";
import { validateCreatePod } from "./validate-create-pod.ts";
import { validateJobSubmit } from "./validate-job-submit.ts";
import { validatePodAction } from "./validate-pod-action.ts";
import { validateUpdatePod } from "./validate-update-pod.ts";

const ctx = catalogContext(sampleCatalog);
const base = '"name": "p", "image": "i", "gpu": {"id": "NVIDIA GeForce RTX 4090"}';
const KEYS = ["__proto__", "constructor", "prototype"];
const polluted = () => ({}) as Record<string, unknown>;

t.test("createPod: refused at every level, including env keys", async (t) => {
  for (const key of KEYS) {
    const payload = `{"${key}": {"polluted": true}}`;
    const bodies: Array<[string, string]> = [
      [`/${key}`, `{${base}, "${key}": {"polluted": true}}`],
      [`/gpu/${key}`, `{"name": "p", "image": "i", "gpu": {"id": "NVIDIA GeForce RTX 4090", "${key}": {"polluted": true}}}`],
      [`/mounts/${key}`, `{${base}, "mounts": ${payload}}`],
      [`/mounts/persistent/${key}`, `{${base}, "mounts": {"persistent": {"size": 10, "path": "/w", "${key}": 1}}}`],
      [`/env/${key}`, `{${base}, "env": {"${key}": "x"}}`],
    ];
    for (const [path, text] of bodies) {
      const r = validateCreatePod(JSON.parse(text), ctx);
      t.match(r, { ok: false, status: 422 }, `${path} refused`);
      if (!r.ok) t.ok(r.violations.some((v) => v.ruleId === "pods.create.unknown-property" && v.path === path), `${path}: unknown-property`);
    }
  }
  t.equal(polluted().polluted, undefined, "Object.prototype untouched");
});

t.test("PATCH, pod action and job submission refuse them too", async (t) => {
  for (const key of KEYS) {
    const update = validateUpdatePod(JSON.parse(`{"${key}": {"polluted": true}}`), { kind: "gpu", mountKind: "none" });
    t.match(update, { ok: false, status: 422, violations: [{ ruleId: "pods.update.unknown-property", path: `/${key}` }] });
    const env = validateUpdatePod(JSON.parse(`{"env": {"${key}": "x"}}`), { kind: "gpu", mountKind: "none" });
    t.match(env, { ok: false, violations: [{ ruleId: "pods.update.unknown-property", path: `/env/${key}` }] });
    const action = validatePodAction(JSON.parse(`{"action": "stop", "${key}": {"polluted": true}}`));
    t.match(action, { ok: false, violations: [{ ruleId: "pods.action.unknown-property" }] });
    const job = validateJobSubmit(JSON.parse(`{"input": {}, "${key}": {"polluted": true}}`), { kind: "run" });
    t.match(job, { ok: false, status: 400, violations: [{ ruleId: "jobs.submit.unknown-key", path: `/${key}` }] });
    const policy = validateJobSubmit(JSON.parse(`{"input": {}, "policy": {"${key}": {"polluted": true}}}`), { kind: "run" });
    t.match(policy, { ok: false, violations: [{ ruleId: "jobs.submit.unknown-key", path: `/policy/${key}` }] });
  }
  t.equal(polluted().polluted, undefined, "Object.prototype untouched");
});

t.test("accepted values are fresh plain objects", async (t) => {
  const r = validateCreatePod(JSON.parse(`{${base}, "env": {"HOME": "/root"}}`), ctx);
  t.ok(r.ok);
  if (r.ok) {
    t.equal(Object.getPrototypeOf(r.value.env), Object.prototype);
    t.same(Object.keys(r.value.env), ["HOME"]);
  }
});
