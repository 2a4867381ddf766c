/**
 * #31, item 6: the run's time bounds scale with what it measures of the target. A proxy in front
 * of the embedded emulator holds every request `DELAY_MS` and every body `bytes / BYTES_PER_S`
 * (test-support/delaying-proxy.ts), so the target is slow by construction: the measured round
 * trip and upload follow the injected delay, the derived request timeout and property scale follow
 * them, and the 20 MB runsync that a 1.5 s timeout cuts short is judged. No assertion on the
 * machine's speed: only on bounds the proxy's delays guarantee.
 */
import t from "tap";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import "./checks/index.ts";
import { checks } from "./check-registry.ts";
import { Client } from "./client.ts";
import { conform } from "./conform.ts";
import { TargetError } from "./errors.ts";
import { propertyBoundMs } from "./checks/jobs/support/property.ts";
import { runningBound } from "./checks/graphql/pod-wait.ts";
import { CheckRegistry } from "./check-registry.ts";
import type { CheckContext } from "./check.ts";
import { realtimeBounds, REALTIME_PROPERTY_LIMIT_MS, REALTIME_RUNNING_PROPERTY_LIMIT_MS, REALTIME_RUNNING_WAIT_MS } from "./property-bounds.ts";
import { startBroken } from "./test-support/broken-target.ts";
import { startDelayingProxy } from "./test-support/delaying-proxy.ts";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { timedUpload } from "./timed-upload.ts";
import {
  deriveTiming,
  describeTiming,
  LARGEST_BODY_BYTES,
  measureTarget,
  PROPERTY_SCALE_CAP,
  SAFETY,
  TIMEOUT_CAP_MS,
  UPLOAD_BYTES,
} from "./target-timing.ts";

const DELAY_MS = 200;
const BYTES_PER_S = 8_000_000;
/** The floor given as --timeout-ms: shorter than a 20 MB body takes through the proxy (2.5 s and the delay). */
const FLOOR_MS = 1_500;

t.test("deriveTiming: a fast target keeps --timeout-ms; a slow upload raises it, bounded above", async (t) => {
  const fast = deriveTiming({ roundTripMs: 2, uploadMs: 10, uploadBytes: UPLOAD_BYTES, uploadBytesPerS: 100_000_000 }, 30_000);
  t.equal(fast.timeoutMs, 30_000, "the floor stands");
  t.equal(fast.propertyScale, 1);
  const slow = deriveTiming({ roundTripMs: 50, uploadMs: 1_000, uploadBytes: UPLOAD_BYTES, uploadBytesPerS: 1_000_000 }, 30_000);
  t.equal(slow.largestRequestMs, 50 + (LARGEST_BODY_BYTES * 1000) / 1_000_000);
  t.equal(slow.timeoutMs, SAFETY * slow.largestRequestMs!, "four times the largest request's measured time");
  t.equal(slow.propertyScale, Math.min(PROPERTY_SCALE_CAP, Math.round((slow.timeoutMs / 30_000) * 100) / 100));
  const crawling = deriveTiming({ roundTripMs: 900, uploadMs: 20_000, uploadBytes: UPLOAD_BYTES, uploadBytesPerS: 50_000 }, 30_000);
  t.equal(crawling.timeoutMs, TIMEOUT_CAP_MS, "never past the cap");
  t.equal(crawling.propertyScale, PROPERTY_SCALE_CAP);
  t.equal(crawling.capped, true);
  const unmeasured = deriveTiming(undefined, 30_000, "connection refused");
  t.same([unmeasured.timeoutMs, unmeasured.propertyScale], [30_000, 1]);
  t.match(describeTiming(unmeasured), /not measured \(connection refused\)/);
});

t.test("the job properties' bound grows with the measured scale", async (t) => {
  const at = (propertyScale: number) => propertyBoundMs({ controlApi: false, deadline: Number.POSITIVE_INFINITY, options: { timing: { propertyScale } } }, {});
  t.equal(at(3), 3 * at(1));
  t.equal(propertyBoundMs({ controlApi: true, deadline: Number.POSITIVE_INFINITY }, {}), 60_000, "no timing: as before");
});

t.test("through a delaying proxy, the measured figures and the derived bounds follow the injected delay", async (t) => {
  const target = await startBroken();
  const proxy = await startDelayingProxy(target.rest, { delayMs: DELAY_MS, bytesPerS: BYTES_PER_S });
  t.teardown(async () => {
    await proxy.close();
    await target.stop();
  });
  const m = await measureTarget({ rest: proxy.url, serverless: proxy.url, endpoint: "conformance", timeoutMs: 60_000, apiKey: target.keys.api! });
  t.ok(m.roundTripMs >= DELAY_MS, `round trip ${m.roundTripMs} ms, at least the ${DELAY_MS} ms held`);
  const held = DELAY_MS + (UPLOAD_BYTES * 1000) / BYTES_PER_S;
  t.ok(m.uploadMs! >= held, `upload ${m.uploadMs} ms, at least the ${held} ms held`);
  const timing = deriveTiming(m, FLOOR_MS);
  const leastLargest = DELAY_MS + (LARGEST_BODY_BYTES * 1000) / BYTES_PER_S;
  t.ok(timing.largestRequestMs! >= leastLargest, `the largest request ~${timing.largestRequestMs} ms, at least what the proxy holds it (${leastLargest} ms)`);
  t.ok(timing.timeoutMs >= Math.min(TIMEOUT_CAP_MS, SAFETY * leastLargest), `request timeout ${timing.timeoutMs} ms`);
  t.equal(timing.propertyScale, PROPERTY_SCALE_CAP, "bounds grown as far as they go for a floor of 1.5 s");
});

t.test("a 20 MB runsync that the 1.5 s floor would cut short is judged: the timeout was raised from the measures", async (t) => {
  const target = await startBroken();
  const proxy = await startDelayingProxy(target.rest, { delayMs: DELAY_MS, bytesPerS: BYTES_PER_S });
  t.teardown(async () => {
    await proxy.close();
    await target.stop();
  });
  // Without the scaling: the same body, sent with the floor as its timeout, is cut short.
  const plain = Client.create({ timeoutMs: FLOOR_MS, keys: target.keys });
  const body = `{"input":{"op":"sleep","ms":0,"pad":"${"a".repeat(20_000_000 - 40)}"}}`;
  const cut = await plain.request({ method: "POST", url: `${proxy.url}/v2/conformance/runsync`, body, headers: { "content-type": "application/json" }, auth: { key: "api" } }).then(
    () => undefined,
    (err: unknown) => err,
  );
  await plain.close();
  t.ok(cut instanceof TargetError, `a 20 MB body through the proxy outlasts ${FLOOR_MS} ms: ${String(cut)}`);

  const lines: string[] = [];
  const { report } = await conform(
    { only: ["jobs.payload.runsync-limit"], seed: 1, timeoutMs: FLOOR_MS, reportDir: mkdtempSync(join(tmpdir(), "cpsim-timing-")) },
    { registry: checks, startEmbedded: async () => ({ ...target, rest: proxy.url, serverless: proxy.url }), io: { stdout: (s) => lines.push(s), stderr: () => {} } },
  );
  const rule = report.rules.find((r) => r.id === "jobs.payload.runsync-limit");
  t.same(report.targetErrors, [], "no request cut short");
  t.equal(rule?.status, "pass", `${rule?.reason ?? ""} ${rule?.failures[0]?.evidence.expected ?? ""}`);
  t.ok(report.timing!.measured!.roundTripMs >= DELAY_MS);
  t.ok(report.timing!.timeoutMs > FLOOR_MS, `the run's request timeout ${report.timing!.timeoutMs} ms, raised from ${FLOOR_MS}`);
  t.equal(report.timing!.givenTimeoutMs, FLOOR_MS);
  t.match(lines.join(""), /timing: round trip \d+ ms, upload .* request timeout \d+ ms \(raised from 1500 ms/, "the run says so");
});

t.test("through a delaying proxy, the GraphQL and pod lifecycle bounds grow by the same measured factor as the jobs'", async (t) => {
  const target = await startBroken();
  const proxy = await startDelayingProxy(target.rest, { delayMs: DELAY_MS, bytesPerS: BYTES_PER_S });
  t.teardown(async () => {
    await proxy.close();
    await target.stop();
  });
  // Checks that keep the context they were given: a GraphQL rule and a pod lifecycle one, judged against a real-time target.
  const seen = new Map<string, CheckContext>();
  const keep = (id: string) => async (ctx: CheckContext) => {
    seen.set(id, ctx);
    await ctx.client.request({ method: "GET", url: `${ctx.target.rest}/` });
    return ctx.pass();
  };
  const registry = new CheckRegistry().register("graphql.pod-find-and-deploy.fields", keep("graphql")).register("jobs.health.shape", keep("jobs"));
  const lines: string[] = [];
  const { report } = await conform(
    { seed: 1, timeoutMs: FLOOR_MS, explainTime: true, minCoverage: 0, reportDir: mkdtempSync(join(tmpdir(), "cpsim-timing-")) },
    { registry, startEmbedded: async () => ({ ...target, controlApi: false, rest: proxy.url, serverless: proxy.url }), io: { stdout: (s) => lines.push(s), stderr: () => {} } },
  );
  const scale = report.timing!.propertyScale;
  t.equal(scale, PROPERTY_SCALE_CAP, "the proxy's delays call for the largest factor");
  const graphql = seen.get("graphql")!;
  const jobs = seen.get("jobs")!;
  t.ok(graphql && jobs, "both checks ran");
  const bounds = realtimeBounds(graphql.options);
  t.same(bounds, realtimeBounds(jobs.options), "one factor for every area");
  t.equal(bounds.propertyMs, scale * REALTIME_PROPERTY_LIMIT_MS, "a GraphQL or pod lifecycle property's bound, scaled");
  t.equal(bounds.runningPropertyMs, scale * REALTIME_RUNNING_PROPERTY_LIMIT_MS, "where a pod must first start, scaled");
  t.equal(bounds.runningWaitMs, scale * REALTIME_RUNNING_WAIT_MS, "the wait for a pod to start, scaled");
  t.equal(propertyBoundMs(jobs, {}), bounds.propertyMs, "the job properties' bound is the same one");
  t.equal(runningBound(graphql), "8 min of real time", "the GraphQL pod wait says its scaled bound (2 min as given)");
  const said = lines.join("");
  t.match(said, /property bounds ×4 \(capped\): jobs, GraphQL and pod lifecycle properties 180 s each against a real-time target \(240 s on virtual time\), 600 s where a pod must first start \(its wait for RUNNING or EXITED 480 s\)/, "--explain-time shows them");
});

/** A target that answers every request at once from its headers, never reading a body. */
async function answersUnread(status: number): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    if (req.method === "POST") req.socket.pause();
    res.writeHead(req.method === "POST" ? status : 200, { "content-type": "application/json" });
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

t.test("the upload carries the accepted key and broken JSON: the target reads it through, refuses it, and makes no job", async (t) => {
  const target = await startBroken();
  t.teardown(() => target.stop());
  const m = await measureTarget({ rest: target.rest, serverless: target.serverless!, endpoint: "conformance", timeoutMs: 60_000, apiKey: target.keys.api! });
  t.equal(m.uploadNotMeasured, undefined, "a rate was measured");
  t.equal(m.uploadBytes, UPLOAD_BYTES);
  t.ok(m.uploadBytesPerS! > 0);
  const health = await fetch(`${target.serverless!}/v2/conformance/health`, { headers: { authorization: `Bearer ${target.keys.api!}` } });
  const jobs = ((await health.json()) as { jobs: Record<string, number> }).jobs;
  t.same(Object.values(jobs).reduce((a, b) => a + b, 0), 0, `no job was made: ${JSON.stringify(jobs)}`);
});

t.test("an answer given before the body was read is no upload: the timeout stays as given", async (t) => {
  for (const status of [401, 400]) {
    const stub = await answersUnread(status);
    t.teardown(() => stub.close());
    // 32 MB, more than any socket buffer between the two ends holds: the answer comes with chunks still unsent.
    const up = await timedUpload(`${stub.url}/v2/conformance/runsync`, { "content-type": "application/json" }, Buffer.alloc(32_000_000, 97), 60_000);
    t.equal(up.status, status);
    t.equal(up.bodySent, false, `${status}: answered before the body was all sent`);
  }
  const refusing = await answersUnread(401);
  t.teardown(() => refusing.close());
  const m = await measureTarget({ rest: refusing.url, serverless: refusing.url, endpoint: "conformance", timeoutMs: 60_000, apiKey: "sk-0123456789" });
  t.equal(m.uploadBytesPerS, undefined, "no rate from a refusal");
  t.match(m.uploadNotMeasured, /answered 401/);
  const timing = deriveTiming(m, FLOOR_MS);
  t.equal(timing.timeoutMs, FLOOR_MS, "the floor stands: a fast refusal says nothing of the upload rate");
  t.match(describeTiming(timing), /upload not measured \(.*answered 401/);
  const keyless = await measureTarget({ rest: refusing.url, serverless: refusing.url, endpoint: "conformance", timeoutMs: 60_000 });
  t.match(keyless.uploadNotMeasured ?? "", /no full-access key/, "without the key, no upload is sent");
});
