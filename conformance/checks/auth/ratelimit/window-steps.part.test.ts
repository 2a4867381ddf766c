import t from "tap";
import { windowSteps } from "./window-steps.ts";
import type { LimitMember } from "./read-rate-limit.ts";

const limits = (...ms: [string, number, number][]): Map<string, LimitMember> => new Map(ms.map(([name, remaining, reset]) => [name, { name, remaining, reset } as LimitMember]));

t.test("a window that got quota back before its t may have reset (a sliding window's t may name the full reset)", async (t) => {
  const steps = windowSteps(limits(["minute", 10, 50], ["hour", 100, 3000]), limits(["minute", 12, 49], ["hour", 99, 2999]), 1_000);
  t.same(steps.map((s) => [s.name, s.mayHaveReset]), [["minute", true], ["hour", false]]);
});

t.test("a window that fell, or stayed, before its t cannot have reset", async (t) => {
  const steps = windowSteps(limits(["minute", 10, 50], ["hour", 100, 3000]), limits(["minute", 10, 49], ["hour", 99, 2999]), 1_000);
  t.same(steps.map((s) => [s.name, s.mayHaveReset]), [["minute", false], ["hour", false]]);
  t.ok(windowSteps(limits(["minute", 0, 2]), limits(["minute", 0, 1]), 1_000)[0]!.mayHaveReset, "t - 1 seconds passed: it may have");
});
