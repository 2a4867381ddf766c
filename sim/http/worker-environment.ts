// What `cpsim serve --worker-endpoint` prints for each such endpoint (see worker-gateway.ts).

/**
 * The environment a worker process needs to serve `endpointId` of the emulator at `baseUrl`, as
 * the platform injects it into its worker containers. `$ID` and `$RUNPOD_POD_ID` stay literal:
 * the official worker substitutes them itself.
 */
export function workerEnvironment(baseUrl: string, endpointId: string, apiKey: string, workerId = "worker-1"): Record<string, string> {
  const v2 = `${baseUrl}/v2/${endpointId}`;
  // The worker appends "&…" to these URLs, so each carries a query already.
  const q = "?gpu=cpsim";
  return {
    RUNPOD_WEBHOOK_GET_JOB: `${v2}/job-take/$ID${q}`,
    RUNPOD_WEBHOOK_POST_OUTPUT: `${v2}/job-done/$RUNPOD_POD_ID/$ID${q}`,
    RUNPOD_WEBHOOK_POST_STREAM: `${v2}/job-stream/$RUNPOD_POD_ID/$ID${q}`,
    RUNPOD_WEBHOOK_PING: `${v2}/ping/$RUNPOD_POD_ID${q}`,
    RUNPOD_AI_API_KEY: apiKey,
    RUNPOD_POD_ID: workerId,
    RUNPOD_ENDPOINT_ID: endpointId,
  };
}
