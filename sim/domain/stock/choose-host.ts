/**
 * The one tie-breaking rule for every placement (pods through the scheduler, serverless workers
 * through GpuPool.acquire): best fit, then catalog order.
 *
 * Best fit (the candidate with the fewest free units that still hold the request) keeps large
 * holes open for large requests, so an 8-GPU pod still finds a whole host after many 1-GPU pods;
 * among equally good hosts the one listed first in the catalog wins. The rule draws nothing from
 * an Rng, so a placement depends only on the state it reads.
 */

/**
 * @param candidates host indices in catalog order (ascending)
 * @param free free units of a host (GPUs, or vCPUs)
 * @param need units the request takes
 * @param extraFits an additional capacity test (CPU hosts also check memory)
 * @returns the chosen host index, or -1 when no candidate has room
 */
export function chooseHost(
  candidates: readonly number[],
  free: (hostIndex: number) => number,
  need: number,
  extraFits?: (hostIndex: number) => boolean,
): number {
  let best = -1;
  let bestFree = Infinity;
  for (const h of candidates) {
    const f = free(h);
    if (f < need || f >= bestFree) continue;
    if (extraFits && !extraFits(h)) continue;
    best = h;
    bestFree = f;
  }
  return best;
}
