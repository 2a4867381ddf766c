import t from "tap";
import { validatePodAction } from "./validate-pod-action.ts";

t.test("the four actions are accepted", async (t) => {
  for (const action of ["start", "stop", "restart", "terminate"] as const) t.same(validatePodAction({ action }), { ok: true, value: { action } });
});

t.test("anything else is 422 naming the rule", async (t) => {
  t.match(validatePodAction({ action: "pause" }), { status: 422, violations: [{ ruleId: "pods.action.action-enum", message: /"start", "stop", "restart" or "terminate"/ }] });
  t.match(validatePodAction({ action: 1 }), { status: 422, violations: [{ ruleId: "pods.action.action-enum" }] });
  t.match(validatePodAction({}), { status: 422, violations: [{ ruleId: "pods.action.action-required", path: "/action" }] });
  t.match(validatePodAction({ action: "stop", force: true }), { status: 422, violations: [{ ruleId: "pods.action.unknown-property", path: "/force" }] });
  t.match(validatePodAction("stop"), { status: 422, violations: [{ ruleId: "pods.action.field-type", path: "" }] });
});
