import t from "tap";
import { Harness, body, matchesSchema } from "./test-harness.ts";
import { webhookBody } from "./webhook-body.ts";

t.test("the webhook body is the final Job record as status shows it", async (t) => {
  const h = new Harness();
  const ok = h.run("conformance", { op: "sleep", ms: 800 }, { webhook: "https://hooks.example.test/done" });
  const failed = h.run("conformance", { op: "fail", message: "bad input" }, { webhook: "http://127.0.0.1:9/x" });
  h.run("conformance", {}); // no webhook: no entry
  h.finish("conformance", ok);
  h.finish("conformance", failed);
  const entries = h.platform.serverless.drainWebhooks();
  t.equal(entries.length, 2, "one entry per job with a webhook");
  const byId = new Map(entries.map((e) => [e.job.id, e]));
  for (const id of [ok, failed]) {
    const entry = byId.get(id);
    t.ok(entry, `an entry for ${id}`);
    const b = webhookBody(entry!.job);
    matchesSchema(t, "Job", b, "webhook body");
    t.same(b, body(h.status("conformance", id)), "equal to what status answers");
    t.notOk("retries" in b, "no model-only fields");
    t.same(JSON.parse(JSON.stringify(b)), b, "plain JSON");
  }
  t.equal(byId.get(ok)!.url, "https://hooks.example.test/done");
  t.match(webhookBody(byId.get(failed)!.job), { status: "FAILED", error: /bad input/ });
  t.match(webhookBody(byId.get(ok)!.job), { status: "COMPLETED", output: { slept_ms: 800 } });
});

t.test("a cancelled job with a webhook is notified too", async (t) => {
  const h = new Harness();
  const id = h.run("conformance", { op: "sleep", ms: 5000 }, { webhook: "https://hooks.example.test/c" });
  h.call("POST", `/v2/conformance/cancel/${id}`);
  const [entry] = h.platform.serverless.drainWebhooks();
  t.same(webhookBody(entry.job), { id, status: "CANCELLED" });
});
