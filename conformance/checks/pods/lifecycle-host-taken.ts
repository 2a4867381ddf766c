/**
 * pods.start.host-gpus-taken (choices.md, strict only): "A stopped pod stays tied to its host:
 * starting it again fails (409 ...) when that host's GPUs were taken meanwhile."
 *
 * No request names a host, so the check takes every free GPU of the pod's type in its data
 * center: a GPU pod is created in the scarcest (type, data center) the catalog shows, stopped,
 * and then filler pods of that type are created there, largest first, until even one GPU is
 * refused. The stopped pod's host is then full whichever it is, and its start must answer 409.
 * Where the fill does not finish within a bounded number of pods, the rule is skipped.
 */
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import { createdPodId } from "./create-pod-client.ts";
import { Evidence } from "./lifecycle-evidence.ts";
import { createPod, isSuccess, jsonObject, podAction, routeMissing, terminatePod } from "./lifecycle-pods.ts";
import { settle } from "./lifecycle-run.ts";

/** Bounds: candidate (type, data center) pairs, and filler pods per attempt. */
const MAX_PAIRS = 3;
const MAX_FILLERS = 24;
const FILL_COUNTS = [8, 4, 2, 1];
const RANK: Readonly<Record<string, number>> = { Low: 0, Medium: 1, High: 2 };

interface Pair {
  readonly gpuTypeId: string;
  readonly dataCenterId: string;
}

/** (type, data center) pairs with the least stock first, from the data center catalog's gpuAvailability. */
async function scarcePairs(ctx: CheckContext): Promise<Pair[]> {
  const res = await ctx.client.request({ method: "GET", url: `${ctx.target.rest}/v2/catalog/datacenters`, auth: { key: "api" } });
  const dcs = jsonObject(res)?.dataCenters;
  if (!Array.isArray(dcs)) return [];
  const ranked: Array<Pair & { rank: number }> = [];
  for (const dc of dcs) {
    if (typeof dc?.id !== "string" || !Array.isArray(dc.gpuAvailability)) continue;
    for (const g of dc.gpuAvailability) {
      const rank = RANK[g?.stockStatus as string];
      if (typeof g?.gpuTypeId === "string" && rank !== undefined) ranked.push({ gpuTypeId: g.gpuTypeId, dataCenterId: dc.id, rank });
    }
  }
  return ranked.sort((a, b) => a.rank - b.rank).slice(0, MAX_PAIRS);
}

const gpuBody = (pair: Pair, count: number, name: string) => ({
  name,
  image: "ubuntu:22.04",
  gpu: { id: pair.gpuTypeId, count },
  dataCenterIds: [pair.dataCenterId],
});

async function attempt(ctx: CheckContext, pair: Pair, made: string[]): Promise<CheckOutcome | undefined> {
  const evidence = new Evidence(ctx);
  const created = await createPod(ctx, gpuBody(pair, 1, "cpsim-stopped"));
  // The body's id, else the one its Location header names.
  const podId = createdPodId(created);
  if (!isSuccess(created.status) || podId === undefined) return undefined;
  const pod: Record<string, unknown> & { id: string } = { ...jsonObject(created), id: podId };
  made.push(pod.id);
  if (pod["dataCenterId"] !== undefined && pod["dataCenterId"] !== null && pod["dataCenterId"] !== pair.dataCenterId) return undefined;
  evidence.capture("POD_ID", created.exchange, pod.id);
  const stop = await podAction(ctx, pod.id, "stop");
  if (routeMissing(stop.status)) return ctx.skip(`the target has no POST /v2/pods/{id}/action (it answered ${stop.status}), so no pod could be stopped`);
  if (!isSuccess(stop.status)) return undefined;

  let countIndex = 0;
  let exhausted = false;
  for (let i = 0; i < MAX_FILLERS && !exhausted; i++) {
    const filler = await createPod(ctx, gpuBody(pair, FILL_COUNTS[countIndex], `cpsim-filler-${i + 1}`));
    const id = createdPodId(filler);
    if (isSuccess(filler.status) && id !== undefined) {
      made.push(id);
      evidence.capture(`FILLER_${made.length - 1}`, filler.exchange, id);
    } else if (++countIndex >= FILL_COUNTS.length) {
      exhausted = true;
    }
  }
  if (!exhausted) return undefined;

  const start = await podAction(ctx, pod.id, "start");
  if (start.status === 409) return ctx.pass();
  return ctx.fail(
    evidence.failure(
      `every free ${pair.gpuTypeId} GPU in ${pair.dataCenterId} was taken after the pod was stopped, so starting it again answers 409 ("not enough free GPUs on the host machine"); got ${start.status}`,
      start.exchange,
    ),
  );
}

registerCheck(
  "pods.start.host-gpus-taken",
  async (ctx) => {
    const pairs = await scarcePairs(ctx);
    if (pairs.length === 0) return ctx.skip("the data center catalog names no GPU type with its stock, so no host could be filled on purpose");
    try {
      for (const pair of pairs) {
        const made: string[] = [];
        try {
          const outcome = await attempt(ctx, pair, made);
          if (outcome) return outcome;
        } finally {
          for (const id of made) await terminatePod(ctx, id);
        }
      }
    } finally {
      await settle(ctx);
    }
    return ctx.skip(`no stopped pod's GPUs could all be taken: in ${pairs.length} scarce (GPU type, data center) pairs, ${MAX_FILLERS} filler pods did not exhaust the free GPUs`);
  },
  { needs: { keys: ["api"] } },
);
