/**
 * Synchronous HTTP for the k6 stand-in: k6's http calls block, Node's do not. A worker thread
 * does the fetch; the caller waits on a SharedArrayBuffer (Atomics.wait) and takes the answer
 * off its MessagePort with receiveMessageOnPort. The target must live in another process or
 * thread (the caller's event loop is blocked while it waits).
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from "node:worker_threads";

export interface SyncResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly error?: string;
}

const WORKER = `
const { workerData } = require("node:worker_threads");
const { port, signal } = workerData;
const flag = new Int32Array(signal);
port.on("message", async (req) => {
  let out;
  try {
    const res = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body ?? undefined, signal: AbortSignal.timeout(req.timeoutMs) });
    const headers = {};
    res.headers.forEach((v, k) => { headers[k.replace(/(^|-)([a-z])/g, (m) => m.toUpperCase())] = v; });
    out = { status: res.status, headers, body: await res.text() };
  } catch (e) {
    out = { status: 0, headers: {}, body: "", error: String(e && e.message || e) };
  }
  port.postMessage(out);
  Atomics.store(flag, 0, 1);
  Atomics.notify(flag, 0);
});
`;

let state: { worker: Worker; port: MessagePort; flag: Int32Array } | undefined;

function ensure(): NonNullable<typeof state> {
  if (state) return state;
  const { port1, port2 } = new MessageChannel();
  const signal = new SharedArrayBuffer(4);
  const worker = new Worker(WORKER, { eval: true, workerData: { port: port2, signal }, transferList: [port2] });
  worker.unref();
  state = { worker, port: port1, flag: new Int32Array(signal) };
  return state;
}

export function syncRequest(method: string, url: string, body: string | null, headers: Record<string, string>, timeoutMs = 30_000): SyncResponse {
  const s = ensure();
  Atomics.store(s.flag, 0, 0);
  s.port.postMessage({ method, url, body, headers, timeoutMs });
  const waited = Atomics.wait(s.flag, 0, 0, timeoutMs + 5000);
  if (waited === "timed-out") return { status: 0, headers: {}, body: "", error: "timed out" };
  const msg = receiveMessageOnPort(s.port);
  return (msg?.message as SyncResponse) ?? { status: 0, headers: {}, body: "", error: "no answer" };
}

export async function closeSyncHttp(): Promise<void> {
  if (!state) return;
  await state.worker.terminate();
  state = undefined;
}
