/**
 * `ratelimit.retry-after` against a sliding window whose `t` names the moment the whole quota is
 * back (the open-choice space's `rateWindows=sliding-full-reset`): the other key's requests come
 * 100 ms of the service's time apart (a proxy moves the manual clock before each), so the spent
 * minute holds requests of several seconds; its 429 says `Retry-After` until the oldest leaves
 * (one request fits then) and `t` until the newest leaves, later. The spec relates neither to the
 * other: the rule judges Retry-After by waiting it out, and passes such a target.
 */
import { mkdtempSync } from "node:fs";
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import t from "tap";
import { EMULATOR_CONVENTIONS } from "../../../../sim/conventions/index.ts";
import { startEmulator } from "../../../../sim/http/index.ts";
import { conform } from "../../../conform.ts";
import { embeddedCatalog, embeddedKeys } from "../../../embedded.ts";
import { listening } from "../../../test-support/jobs/manual-clock-behind-proxy.ts";
import "./index.ts";

t.test("a 429 whose Retry-After comes before its t (a sliding window's full reset) passes when waiting Retry-After is enough", async (t) => {
  const catalog = embeddedCatalog();
  const keys = embeddedKeys(catalog);
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", conventions: { ...EMULATOR_CONVENTIONS, rateWindows: "sliding-full-reset" } });
  t.teardown(() => emulator.close());
  let earlier = 0;
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    if (req.headers.authorization === `Bearer ${keys.other}` && !(req.url ?? "").startsWith("/_sim")) emulator.backend.advanceTo(emulator.backend.now() + 100_000);
    const out = httpRequest(new URL(req.url ?? "/", emulator.baseUrl), { method: req.method, headers: req.headers }, (answer) => {
      const ra = Number(answer.headers["retry-after"]);
      const minuteT = Number(/"minute";r=\d+;t=(\d+)/.exec(String(answer.headers["ratelimit"] ?? ""))?.[1]);
      if (answer.statusCode === 429 && ra < minuteT) earlier++;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on("error", () => res.destroy());
    out.end(body);
  };
  const proxy = await listening(
    createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (c: Buffer) => chunks.push(c));
      req.on("end", () => forward(req, res, Buffer.concat(chunks)));
    }),
  );
  t.teardown(() => proxy.close());
  const { report } = await conform(
    { target: proxy.url, serverlessUrl: proxy.url, apiKey: keys.api, otherApiKey: keys.other, seed: 1, only: ["ratelimit.retry-after"], minCoverage: 0, quiet: true, reportDir: mkdtempSync(join(tmpdir(), "cpsim-sliding-")) },
    { controlApi: true },
  );
  t.ok(earlier > 0, "the target answered a 429 whose Retry-After came before its minute's t");
  const rule = report.rules.find((r) => r.id === "ratelimit.retry-after");
  t.equal(rule?.status, "pass", `the rule passes (${rule?.status === "fail" ? JSON.stringify(rule.failures?.[0]).slice(0, 500) : rule?.status})`);
});
