/**
 * The soak's health canary, on a thread of its own: it asks for an endpoint's health every 10 ms
 * and sends back every latency when told to stop. In the soak's main thread its timings would
 * also count the workload's own client work (sending 9.9 MB bodies, reading 1.6 GB of answers);
 * here they measure the server.
 */
import { parentPort, workerData } from "node:worker_threads";
import { request } from "undici";

const { base, key } = workerData as { base: string; key: string };
const latencies: number[] = [];
let errors = 0;
let stop = false;
parentPort!.once("message", () => (stop = true));

while (!stop) {
  const start = performance.now();
  try {
    const res = await request(`${base}/v2/conformance/health`, { headers: { authorization: key }, headersTimeout: 120_000, bodyTimeout: 120_000 });
    await res.body.dump();
    if (res.statusCode !== 200) errors++;
  } catch {
    errors++;
  }
  latencies.push(performance.now() - start);
  await new Promise((r) => setTimeout(r, 10));
}
parentPort!.postMessage({ latencies, errors });
