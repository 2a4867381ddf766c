/**
 * The open-choice space's `streamReads` (stream-reads.ts) over a real server with a manual clock:
 * a finished job's four chunks come one read at a time, three at a time, or all at once, and the
 * end is reported with the last chunk or by a read of its own; under every value the official JS
 * client's stream loop (runpod-sdk) gets every chunk, in order, once.
 */
import t from "tap";
import runpodSdk from "runpod-sdk";
import { startEmulator } from "../http/index.ts";
import { EMULATOR_CONVENTIONS, type Conventions } from "./index.ts";

async function target(streamReads: Conventions["streamReads"]) {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", control: true, conventions: { ...EMULATOR_CONVENTIONS, streamReads } });
  const key = emulator.apiKeys.find((k) => k.account === "acct-alpha" && k.access === "full")!.key;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${emulator.serverlessUrl}${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}) });
    return (await res.json()) as { id?: string; status: string; stream: { output: string }[] };
  };
  /** A job of four chunks of "abc", run to its end. */
  const finished = async () => {
    const { id } = await call("POST", "/v2/conformance/run", { input: { op: "stream", chunks: 4, bytes: 3, ms: 0 } });
    for (let i = 0; i < 100 && (await call("GET", `/v2/conformance/status/${id}`)).status !== "COMPLETED"; i++) await call("POST", "/_sim/clock/advance", { ms: 1000 });
    return id!;
  };
  return { emulator, key, call, finished };
}

const cases: [Conventions["streamReads"], [string, number][]][] = [
  ["pending", [["COMPLETED", 4]]],
  ["one-per-read", [["IN_PROGRESS", 1], ["IN_PROGRESS", 1], ["IN_PROGRESS", 1], ["COMPLETED", 1]]],
  ["batches-of-3", [["IN_PROGRESS", 3], ["COMPLETED", 1]]],
  ["end-on-empty", [["IN_PROGRESS", 4], ["COMPLETED", 0]]],
];

for (const [value, reads] of cases) {
  t.test(`${value}: the reads of a finished job's four chunks, and the JS SDK's stream loop`, async (t) => {
    const { emulator, key, call, finished } = await target(value);
    t.teardown(() => emulator.close());
    const id = await finished();
    const seen: [string, number][] = [];
    const outputs: string[] = [];
    for (let i = 0; i < 10; i++) {
      const read = await call("GET", `/v2/conformance/stream/${id}`);
      seen.push([read.status, read.stream.length]);
      outputs.push(...read.stream.map((c) => c.output));
      if (read.status === "COMPLETED") break;
    }
    t.same(seen, reads, "status and chunk count of each read");
    t.same(outputs, ["abc", "abc", "abc", "abc"], "every chunk once, in order");
    const log = console.log;
    console.log = () => undefined; // the SDK prints each poll
    t.teardown(() => void (console.log = log));
    const ep = runpodSdk(key, { baseUrl: `${emulator.serverlessUrl}/v2` }).endpoint("conformance")!;
    const sdkChunks: unknown[] = [];
    for await (const c of ep.stream(await finished())) sdkChunks.push(c);
    t.same(sdkChunks, [{ output: "abc" }, { output: "abc" }, { output: "abc" }, { output: "abc" }], "the SDK's loop gets the four chunks");
  });
}
