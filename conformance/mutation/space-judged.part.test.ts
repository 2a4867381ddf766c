/**
 * The exceptions a point of the open-choice space may leave unjudged, each with its reason
 * (space-judged.ts): none on the emulator's conventions; the action-body rules when the action is
 * in the path; the rate-limit exhaustion rules when the quotas are past what the suite spends.
 */
import t from "tap";
import { EMULATOR_CONVENTIONS } from "../../sim/conventions/index.ts";
import { EXHAUSTION_BOUND } from "../checks/auth/ratelimit/exhaustion.ts";
import { UNJUDGED_FOR_A_REASON, unjudgedWithoutReason } from "./space-judged.ts";

t.test("exceptions, each with its reason", async (t) => {
  t.same(UNJUDGED_FOR_A_REASON(EMULATOR_CONVENTIONS), {});
  t.same(Object.keys(UNJUDGED_FOR_A_REASON({ ...EMULATOR_CONVENTIONS, actions: "verb" })).sort(), ["pods.action.action-enum", "pods.action.field-type"]);
  const generous = UNJUDGED_FOR_A_REASON({ ...EMULATOR_CONVENTIONS, rateQuotas: "generous" });
  t.same(Object.keys(generous).sort(), ["ratelimit.429-detail-names-window", "ratelimit.429-when-spent", "ratelimit.retry-after"]);
  t.match(generous["ratelimit.429-when-spent"], String(EXHAUSTION_BOUND), "the reason names the suite's bound");
  t.same(unjudgedWithoutReason({ ...EMULATOR_CONVENTIONS, rateQuotas: "tight" }, new Set(["ratelimit.retry-after"]), new Set()), ["ratelimit.retry-after"], "a tight quota excuses nothing");
});
