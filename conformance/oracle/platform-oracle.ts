/**
 * The oracle computed by the platform model (sim/domain): the pod, job and health sets of
 * pod-oracle.ts, job-oracle.ts and health-oracle.ts, and a shadow platform per stateful run. The
 * lenient sets are the spec's (a refusal, or an answer that visibly keeps the constraint, is
 * allowed wherever the spec states no answer); the strict sets are the model's own answers, which
 * are the emulator's choices.
 */
import type { Profile } from "../options.ts";
import { modelHealthOracle } from "./health-oracle.ts";
import { modelJobOracle } from "./job-oracle.ts";
import type { Oracle } from "./oracle.ts";
import { modelPodOracle } from "./pod-oracle.ts";
import { ShadowPlatform } from "./shadow-platform.ts";

export function platformOracle(profile: Profile): Oracle {
  return {
    profile,
    pods: modelPodOracle(profile),
    jobs: modelJobOracle(profile),
    health: modelHealthOracle(profile),
    shadow: (seed) => new ShadowPlatform(seed),
  };
}
