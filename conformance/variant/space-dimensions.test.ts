/**
 * Rules met by the open-choice space's later dimensions (sim/conventions/), each on a point that
 * broke it before its fix: a pod action whose effect shows late (`actionEffect`: the action body's
 * rules drew their controls from a stale `actions` list and none was credited), and keys checked
 * before routes (`checkOrder`: a hidden route's 404 differed from an unknown path's, the probes
 * took `/action` for a route and the locked-pod rule never reached a stop). Zero failures, and
 * every rule the emulator judges judged there too.
 */
import t from "tap";
import { EMULATOR_CONVENTIONS, type Conventions } from "../../sim/conventions/index.ts";
import { judgesAsTheEmulator, reference, runOn } from "../test-support/family-run.ts";
import { startFamilyTarget } from "../mutation/start-family.ts";

t.setTimeout(900_000);

// The action body's rules are strict only (the spec shows no payload for the pod actions): that point runs under strict.
const POINTS: readonly { readonly name: string; readonly conventions: Conventions; readonly only: string[]; readonly profile?: "strict" }[] = [
  {
    name: "actionEffect=delayed-300s",
    conventions: { ...EMULATOR_CONVENTIONS, actionEffect: "delayed-300s" },
    only: ["pods.action.action-enum", "pods.action.field-type", "pods.locked-no-stop"],
    profile: "strict",
  },
  {
    name: "checkOrder=auth-route-rate actions=custom",
    conventions: { ...EMULATOR_CONVENTIONS, checkOrder: "auth-route-rate", actions: "custom", description: "none" },
    only: ["pods.locked-no-stop"],
  },
];

for (const point of POINTS) {
  t.test(point.name, async (t) => {
    const onEmulator = await reference(t, point.only, point.profile);
    const target = await startFamilyTarget({ family: point.conventions });
    try {
      const run = await runOn(t, target, point.only, target.profile, "point", point.profile);
      judgesAsTheEmulator(t, target.conventions, run.report, onEmulator);
    } finally {
      await target.stop();
    }
  });
}
