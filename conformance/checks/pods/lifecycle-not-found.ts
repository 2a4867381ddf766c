/**
 * pods.not-found (choices.md, strict only): "An unknown pod id gives 404." Made-up ids, drawn by
 * fast-check, go to every operation on one pod: getPod, updatePod, deletePod and the action.
 * The ids carry a prefix no platform hands out, so they are unknown on any target.
 */
import fc from "fast-check";
import { registerCheck } from "../../check-registry.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { deletePod, getPod, patchPod, podAction } from "./lifecycle-pods.ts";
import { checkRequests } from "./lifecycle-property.ts";

const RUNS = 12;
const unknownId = fc.stringMatching(/^[a-z0-9]{6,18}$/).map((s) => `cpsim-unknown-${s}`);
const operation = fc.constantFrom("get", "patch", "delete", "action");

registerCheck(
  "pods.not-found",
  async (ctx) => {
    const result = await checkRequests(ctx, fc.record({ id: unknownId, op: operation }), RUNS, async ({ id, op }, violate) => {
      const res =
        op === "get"
          ? await getPod(ctx, id)
          : op === "patch"
            ? await patchPod(ctx, id, { name: "renamed" })
            : op === "delete"
              ? await deletePod(ctx, id)
              : await podAction(ctx, id, "stop");
      if (!accepts(ctx, res.status)) violate({ expected: `an unknown pod id (${op}) answers ${acceptedText(ctx)} ("An unknown pod id gives 404"); got ${res.status}`, exchange: res.exchange });
      return true;
    });
    return result.outcome ?? ctx.pass();
  },
  { needs: { keys: ["api"] } },
);
