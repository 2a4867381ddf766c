/**
 * Waiting for a pod to reach a status, bounded: the spec names no timing, so the check polls,
 * advancing virtual time on the emulator (ten virtual minutes at most) and sleeping on any other
 * target (two real minutes at most). Undefined when the pod did not get there in time.
 */
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { until } from "../support/time.ts";
import { getPod, jsonObject } from "./lifecycle-pods.ts";

export async function waitForStatus(ctx: CheckContext, id: string, statuses: readonly string[]): Promise<ClientResponse | undefined> {
  const [stepMs, steps] = ctx.controlApi ? [15_000, 40] : [5_000, 24];
  return until(
    ctx,
    async () => {
      const res = await getPod(ctx, id);
      const status = jsonObject(res)?.status;
      return res.status === 200 && typeof status === "string" && statuses.includes(status) ? res : undefined;
    },
    stepMs,
    steps,
  );
}

/** How long waitForStatus waits at most, in words, for skip reasons. */
export const waitBound = (ctx: CheckContext): string => (ctx.controlApi ? "10 virtual minutes" : "2 minutes");
