/**
 * One module judges an exchange, whoever sent it: `conform` run through `cpsim proxy` to the
 * emulator, with and without a defect. For every rule both judge from one exchange (the error
 * format, the RateLimit headers), conform's verdict from its own exchanges and the proxy's from
 * the same exchanges seen as a client's traffic agree: each exchange conform fails a rule on, the
 * proxy fails the rule on too; without a defect neither finds anything. The proxy judges every
 * rule on every exchange (conform judges each probe for its own rule only), so it also finds the
 * defect where conform, with few runs, may not.
 */
import t from "tap";
import type { RecordedRequest } from "../../reports/conformance-report.ts";
import "../checks/index.ts";
import { conform } from "../conform.ts";
import { defectByName, defectsNamed } from "../../sim/defects/index.ts";
import { startEmulator } from "../../sim/http/index.ts";
import { startProxy } from "../proxy/proxy.ts";

const SHARED = [
  "errors.problem-json", "errors.same-body", "errors.status-matches", "errors.title-matches-status",
  "ratelimit.headers-present", "ratelimit.headers-well-formed", "ratelimit.policy-windows",
];

let agreed = 0;
for (const defect of [undefined, "bad-request-plain-json", "problem-title-generic", "problem-status-400", "ratelimit-hour-3599", "ratelimit-without-reset"]) {
  t.test(`${defect ? `--defect ${defect}` : "no defect"}: conform and proxy give the same verdict on the shared rules`, async (t) => {
    const emulator = await startEmulator({ clock: "real", speed: 1, seed: 5, logger: false, ...(defect ? { defects: defectsNamed([defect]) } : {}) });
    t.teardown(() => emulator.close());
    const proxy = await startProxy({ target: emulator.baseUrl, reportDir: t.testdir() });
    t.teardown(() => proxy.stop());
    const key = (access: string, account = "acct-alpha") => emulator.apiKeys.find((k) => k.access === access && k.account === account)!.key;
    const { report } = await conform({
      target: proxy.baseUrl,
      serverlessUrl: proxy.serverlessUrl,
      apiKey: key("full"),
      restrictedApiKey: key("read-only"),
      otherApiKey: key("full", "acct-beta"),
      seed: 11,
      runs: 3,
      only: SHARED,
      reportDir: t.testdir(),
      quiet: true,
    });
    const passive = await proxy.stop();
    const sameRequest = (a: RecordedRequest, b: RecordedRequest) => {
      const u = (r: RecordedRequest) => { const x = new URL(r.url); return `${r.method} ${x.pathname}${x.search}`; };
      return u(a) === u(b) && JSON.stringify(a.body ?? null) === JSON.stringify(b.body ?? null);
    };
    for (const id of SHARED) {
      const active = report.rules.find((r) => r.id === id)!;
      const seen = passive.report.rules.find((r) => r.id === id)!;
      const proxyFailures = seen.failures.filter((f) => f.side !== "client");
      if (!defect) {
        t.not(active.status, "fail", `${id}: conform passes the emulator`);
        t.same(proxyFailures.map((f) => f.evidence.expected), [], `${id}: the proxy finds nothing in the same traffic (${seen.requests} exchanges judged)`);
        continue;
      }
      // Each exchange conform failed the rule on, the proxy failed it on too: the same judgement of the same exchange.
      for (const f of active.failures) {
        const twin = proxyFailures.find((p) => sameRequest(p.evidence.request, f.evidence.request));
        t.ok(twin, `${id}: conform's failing exchange ${f.evidence.request.method} ${f.evidence.request.url} failed by the proxy too`);
        if (twin) t.equal(twin.evidence.got.status, f.evidence.got.status, `${id}: the same answer`);
        agreed++;
      }
    }
    if (defect) {
      const rule = defectByName(defect)!.rule;
      t.equal(passive.report.rules.find((r) => r.id === rule)?.status, "fail", `proxy finds ${rule} in conform's traffic`);
    }
  });
}

t.test("conform's failures were compared with the proxy's, exchange by exchange", async (t) => {
  t.ok(agreed >= 3, `${agreed} failing exchanges of conform judged the same by the proxy`);
});
