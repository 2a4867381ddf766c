/**
 * allowedCudaVersions "restricts placement to machines with those CUDA versions". The
 * black-box form: a version no machine of today can run (CUDA 1.x to 4.x, from 2007 to 2011)
 * must leave the deploy without a pod, and the same deploy without the restriction, on the same
 * GPU type, must then place one, which shows the restriction (not capacity) refused it. The
 * positive side (a listed version places) is not judged: a target may spell versions in its own
 * way ("12.4" or "12.4.1"), and the spec does not say which.
 */
import fc from "fast-check";
import { registerCheck } from "../../check-registry.ts";
import { deployOnce, removePod } from "./deploy.ts";
import { candidatesFor, gpuCandidates, gpuCountFor } from "./gpu-candidates.ts";
import { describe } from "./graphql-request.ts";
import { basicDeployArb, basicFields } from "./inputs.ts";
import { checkProperty, fewRuns, Inconclusive } from "./property.ts";

const ANCIENT_CUDA = ["1.0", "2.0", "3.2", "4.0"] as const;

registerCheck(
  "graphql.allowed-cuda-versions",
  (ctx) =>
    checkProperty(
      ctx,
      fc.record({ deploy: basicDeployArb, version: fc.constantFrom(...ANCIENT_CUDA) }),
      async ({ deploy, version }) => {
        const rule = `("${ctx.rule.spec}")`;
        const candidates = await gpuCandidates(ctx);
        if (candidates.length === 0) return new Inconclusive("the target's gpuTypes lists no GPU type to deploy on");
        const count = gpuCountFor(candidates, deploy.countPick);
        for (const gpu of candidatesFor(candidates, count).slice(0, 3)) {
          const fields = { ...basicFields(deploy, gpu.id, count), allowedCudaVersions: [version] };
          const restricted = await deployOnce(ctx, fields);
          if (restricted.podId) {
            await removePod(ctx, restricted.podId);
            return {
              expected: `no pod placed when allowedCudaVersions is [${JSON.stringify(version)}], a version no machine runs ${rule}; got pod ${JSON.stringify(restricted.podId)} (${describe(restricted.answer)})`,
              exchange: restricted.answer.res.exchange,
            };
          }
          if (restricted.answer.ok) {
            return {
              expected: `a failed operation (a non-2xx status or a top-level errors array) when allowedCudaVersions [${JSON.stringify(version)}] leaves no machine ${rule}; got ${describe(restricted.answer)}`,
              exchange: restricted.answer.res.exchange,
            };
          }
          const { allowedCudaVersions: _, ...free } = fields;
          const control = await deployOnce(ctx, free);
          if (control.podId) {
            await removePod(ctx, control.podId);
            // The control placed a pod: capacity was there, and the restriction alone refused.
            return undefined;
          }
        }
        return new Inconclusive("no deploy succeeded even without allowedCudaVersions on the GPU types tried (no capacity): the restriction cannot be told apart");
      },
      { numRuns: fewRuns(ctx, 2), shrinkBudget: 4 },
    ),
  { needs: { keys: ["api"] } },
);

