// A client that breaks the spec through the proxy: its findings are the client's (the target keeps the rules), and its key never reaches a line or a report.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { readFile } from "node:fs/promises";
import t from "tap";
import { writeConformanceReports } from "../../reports/write-reports.ts";
import { startProxy } from "./proxy.ts";
import { findingLines } from "./finding-line.ts";
import type { Finding } from "../passive/passive-judge.ts";
import { describe, emulatorBehindProxy } from "../test-support/proxy/setup.ts";

t.test("a client that breaks the spec: client findings, the target's answers pass, and the key stays out", async (t) => {
  const s = await emulatorBehindProxy(t, { proxy: { maxFinalPolls: 3 } });
  const base = s.proxy.baseUrl;
  const json = { "content-type": "application/json" };
  const bearer = { authorization: `Bearer ${s.key}`, ...json };
  // The key in the query, where the spec says header.
  await (await fetch(`${base}/v2/pods?api_key=${s.key}`)).arrayBuffer();
  // A createPod body with a property the schema does not list.
  await (await fetch(`${base}/v2/pods`, { method: "POST", headers: bearer, body: JSON.stringify({ name: "x", image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount: 2 }, colour: "red" }) })).arrayBuffer();
  // A run without `input`, and a runsync wait out of range.
  await (await fetch(`${base}/v2/conformance/run`, { method: "POST", headers: bearer, body: JSON.stringify({ prompt: "hi" }) })).arrayBuffer();
  await (await fetch(`${base}/v2/conformance/runsync?wait=10`, { method: "POST", headers: bearer, body: JSON.stringify({ input: { op: "echo" } }) })).arrayBuffer();
  // GraphQL with the key in the Authorization header instead of `api_key`.
  await (await fetch(`${base}/graphql`, { method: "POST", headers: bearer, body: JSON.stringify({ query: "{ myself { id } }" }) })).arrayBuffer();
  // Polling a finished job on and on.
  const run = (await (await fetch(`${base}/v2/conformance/run`, { method: "POST", headers: bearer, body: JSON.stringify({ input: { op: "echo" } }) })).json()) as { id: string };
  let status = "";
  // Until it finishes (a cold start on a busy machine can outlast many quick reads): a pause between reads, a bound on their count.
  for (let i = 0; i < 6000 && status !== "COMPLETED"; i++) {
    if (i > 0) await new Promise((r) => setTimeout(r, 20));
    status = ((await (await fetch(`${base}/v2/conformance/status/${run.id}`, { headers: bearer })).json()) as { status: string }).status;
  }
  t.equal(status, "COMPLETED", "the job finished before the client went on polling it");
  for (let i = 0; i < 5; i++) await (await fetch(`${base}/v2/conformance/status/${run.id}`, { headers: bearer })).arrayBuffer();
  const { report } = await s.proxy.stop();

  const client = new Set(s.findings.filter((f) => f.side === "client").map((f) => f.rule.id));
  for (const id of ["auth.bearer-header", "pods.create.unknown-property", "jobs.submit.input-object", "jobs.runsync.wait-range", "graphql.auth-api-key", "client.poll-finished-job"]) {
    t.ok(client.has(id), `${id}: the client's finding`);
  }
  t.same(describe(s.findings.filter((f) => f.side === "target")), [], "the emulator refused each broken request as the spec says: no finding of the target");
  const lines = s.findings.map(findingLines).join("");
  t.match(lines, /FAIL pods\.create\.unknown-property \[client\] \(error\) #\d+ POST \/v2\/pods -> 4\d\d: /, "one line per finding: rule, side, exchange");
  t.match(lines, /replay: curl -sS -i -X POST 'http:\/\/127\.0\.0\.1:\d+\/v2\/pods' .*"\$\{CPSIM_API_KEY\}"/, "a curl line that replays it, the key as a variable");
  const dir = t.testdir();
  const written = await writeConformanceReports(report, { dir });
  for (const file of [written.json, written.junit, written.html]) t.notOk((await readFile(file, "utf8")).includes(s.key), `${file}: no key`);
  t.notOk(lines.includes(s.key), "no key in the finding lines");
  t.equal(report.rules.find((r) => r.id === "pods.create.unknown-property")?.failures[0]?.side, "client");
});

t.test("a client that ignores Retry-After: the client's finding, and only for the key that got the 429", async (t) => {
  // A target that answers every request 429 with Retry-After: 3600 (a stand-in for an exhausted key).
  const target = createServer((req, res) => {
    req.resume();
    res.writeHead(429, {
      "content-type": "application/problem+json",
      "retry-after": "3600",
      ratelimit: '"minute";r=0;t=3600, "hour";r=0;t=3600, "day";r=5;t=80000',
      "ratelimit-policy": '"minute";q=60;w=60, "hour";q=1000;w=3600, "day";q=10000;w=86400',
    });
    res.end(JSON.stringify({ title: "Too Many Requests", status: 429, detail: "the minute window is exhausted" }));
  });
  await new Promise<void>((r) => target.listen(0, "127.0.0.1", r));
  t.teardown(() => target.close());
  const findings: Finding[] = [];
  const proxy = await startProxy({ target: `http://127.0.0.1:${(target.address() as AddressInfo).port}`, reportDir: t.testdir() }, { onFinding: (f) => findings.push(f) });
  t.teardown(() => proxy.stop());
  const hit = (key: string) => fetch(`${proxy.baseUrl}/v2/ep1/health`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.arrayBuffer());
  await hit("impatient-key-000000000001");
  await hit("impatient-key-000000000001");
  await hit("patient-key-00000000000002");
  const { report } = await proxy.stop();
  t.same(findings.filter((f) => f.side === "client").map((f) => f.rule.id), ["client.retry-after"], "only the impatient key's second request");
  t.equal(report.rules.find((r) => r.id === "ratelimit.retry-after")?.status, "pass", "the 429s carry Retry-After and both headers");
});
