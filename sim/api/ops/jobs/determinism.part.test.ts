import t from "tap";
import type { ApiResponse } from "../../types.ts";
import { Harness } from "./test-harness.ts";

/** A fixed session of requests and clock moves; every answer serialised, bytes and all. */
function session(seed: number): string[] {
  const h = new Harness(seed);
  const log: string[] = [];
  const note = (r: ApiResponse): void => {
    log.push(JSON.stringify(r));
  };
  const ids: string[] = [];
  const runs = [
    { op: "sleep", ms: 1500 },
    { op: "fail", message: "no" },
    { op: "stream", chunks: 3, bytes: 10, ms: 200 },
    { op: "bytes", n: 40 },
    {},
  ];
  for (const input of runs) {
    const r = h.call("POST", "/v2/conformance/run", { body: { input } });
    note(r);
    ids.push((r.body as { id: string }).id);
  }
  note(h.call("POST", "/v2/flux-1-schnell/run", { body: { input: { prompt: "p", width: 64, height: 64 } } }));
  for (let step = 0; step < 12; step++) {
    for (const id of ids) note(h.status("conformance", id));
    note(h.call("GET", `/v2/conformance/stream/${ids[2]}`));
    note(h.call("GET", "/v2/conformance/health"));
    h.advance(750);
  }
  note(h.call("POST", `/v2/conformance/retry/${ids[1]}`));
  note(h.settle(h.request("POST", "/v2/conformance/runsync", { query: { wait: "2000" }, body: { input: { op: "sleep", ms: 10_000 } } })));
  note(h.settle(h.request("POST", "/v2/flux-1-schnell/runsync", { body: { input: { prompt: "q", width: 96, height: 64 } } })));
  note(h.call("POST", "/v2/conformance/purge-queue"));
  note(h.call("GET", "/v2/conformance/health"));
  return log;
}

t.test("the same requests on the same seed give byte-identical answers", async (t) => {
  const a = session(42);
  const b = session(42);
  t.equal(a.length, b.length);
  t.same(a, b, "every answer identical");
  const c = session(43);
  t.not(c.join("\n"), a.join("\n"), "another seed gives another session (ids, timings)");
});
