// A 5,000-request slice of `npm run fuzz`: every operation of the served OpenAPI and the GraphQL
// schema, valid, mutated, hostile and raw. No 5xx, no crash. (About 7 s.) The test waits for its
// 5,000 requests, not for a time: a busy machine makes it slower, not failed (the time bound is
// only there so that a hang ends, well inside tap's per-file timeout).
import t from "tap";
import { runFuzz } from "./run-fuzz.ts";

t.test("5,000 fuzzed requests: no 5xx, no crash", async (t) => {
  const findings: string[] = [];
  const r = await runFuzz({ requests: 5000, seconds: 480, seed: 16, concurrency: 32, log: (l) => { findings.push(l); } });
  t.comment(`fuzz_requests=${r.requests} fuzz_5xx=${r.fiveXX} crashes=${r.crashes} stalls=${r.stalls} in ${r.seconds.toFixed(1)} s ${JSON.stringify(r.byKind)}`);
  t.equal(r.requests, 5000, `${r.requests} requests sent`);
  for (const kind of ["valid", "mutated", "hostile", "graphql", "raw"]) t.ok((r.byKind[kind] ?? 0) > 0, `${kind} requests were sent`);
  t.equal(r.fiveXX, 0, findings.join("\n"));
  t.equal(r.crashes, 0, findings.join("\n"));
});
