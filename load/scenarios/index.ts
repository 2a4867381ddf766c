// The built-in scenarios, in the order `cpsim load` runs them when none is named.
import type { Scenario } from "../scenario.ts";
import { createPod } from "./create-pod.ts";
import { graphqlGpuTypes } from "./graphql-gpu-types.ts";
import { mixed } from "./mixed.ts";
import { rateLimit } from "./rate-limit.ts";
import { run1mb } from "./run-1mb.ts";
import { runNearLimit } from "./run-near-limit.ts";
import { runOverLimit } from "./run-over-limit.ts";
import { runSmall } from "./run-small.ts";
import { runsyncNearLimit } from "./runsync-near-limit.ts";
import { runsyncOverLimit } from "./runsync-over-limit.ts";
import { statusPoll } from "./status-poll.ts";
import { streamLarge } from "./stream-large.ts";

export const builtinScenarios: readonly Scenario[] = [
  runSmall,
  run1mb,
  runNearLimit,
  runsyncNearLimit,
  runOverLimit,
  runsyncOverLimit,
  streamLarge,
  statusPoll,
  createPod,
  graphqlGpuTypes,
  rateLimit,
  mixed,
];
