// pods.create.cpu-memory-derived from traffic: after the client read the CPU catalog, a pod record's cpu.memory is its vCPU count times its flavor's ramGbPerVcpu; one GB off is found, on the target's side.
import t from "tap";
import type { SeenExchange } from "./answer.ts";
import { PassiveJudge } from "./passive-judge.ts";
import { exchangeMaker } from "../test-support/passive/hand-made.ts";

const made = exchangeMaker();
const x = (method: string, path: string, body: unknown, sentAt: number, status = 200): SeenExchange => made(method, path, body, sentAt, 5, status);

const RULE = "pods.create.cpu-memory-derived";
function judged(xs: SeenExchange[]) {
  const judge = new PassiveJudge();
  const found = xs.flatMap((e) => judge.judge(e)).filter((f) => f.rule.id === RULE);
  return { found: found.map((f) => `${f.side}: ${f.expected}`), judged: judge.tallies.get(RULE)?.judged ?? 0 };
}

const catalog = (ramGbPerVcpu: unknown) => x("GET", "/v2/catalog/cpus", { cpus: [{ id: "cpu3c", name: "Compute", vcpu: { min: 2, max: 32 }, ramGbPerVcpu }] }, 1_000);
const pod = (memory: unknown, vcpuCount = 4) => ({ id: "p1", name: "n", status: "RUNNING", cpu: { id: "cpu3c", vcpuCount, memory } });

t.test("4 vCPUs of a 2 GB-per-vCPU flavor: memory 8 keeps the rule on every pod answer; 9 is found", async (t) => {
  const ok = judged([catalog(2), x("POST", "/v2/pods", pod(8), 2_000, 201), x("GET", "/v2/pods/p1", pod(8), 3_000), x("GET", "/v2/pods", { pods: [pod(8)] }, 4_000)]);
  t.same(ok.found, []);
  t.equal(ok.judged, 3, "create, read and list judged");
  const off = judged([catalog("2"), x("GET", "/v2/pods/p1", pod(9), 2_000)]);
  t.equal(off.found.length, 1);
  t.match(off.found[0], /^target: cpu\.memory 8 GB: 4 vCPUs times flavor cpu3c's 2 GB per vCPU .* reports 9$/);
});

t.test("no verdict without the catalog read first, without the multiplier, or for another flavor", async (t) => {
  t.same(judged([x("GET", "/v2/pods/p1", pod(9), 2_000)]), { found: [], judged: 0 }, "no catalog read");
  t.same(judged([x("GET", "/v2/pods/p1", pod(9), 500), catalog(2)]), { found: [], judged: 0 }, "the catalog read after");
  t.same(judged([catalog(undefined), x("GET", "/v2/pods/p1", pod(9), 2_000)]), { found: [], judged: 0 }, "no ramGbPerVcpu");
  t.same(judged([catalog(2), x("GET", "/v2/pods/p1", { ...pod(9), cpu: { id: "cpu5g", vcpuCount: 4, memory: 9 } }, 2_000)]), { found: [], judged: 0 }, "a flavor the catalog did not list");
});
