/**
 * route-evidence.ts: a 404 is a refusal only from a served route. Against a real server on port
 * 0: a route whose 404 differs from a made-up sibling's is served; one that answers exactly like
 * the made-up path is not (and assertServedRefusal says why); an answer other than 404 needs no
 * probe; verdicts are remembered per route, ids made general.
 */
import t from "tap";
import { Client } from "./client.ts";
import { assertServedRefusal, forgetRoutes, RouteMissing, routeKey, siblingUrl } from "./route-evidence.ts";
import { sendJson, startTestServer } from "./test-support/test-server.ts";

t.test("the made-up sibling keeps the version and the depth; the route key makes ids general", async (t) => {
  t.equal(siblingUrl("http://h:1/v2/conformance/retry/job-0a1b2c?x=1"), "http://h:1/v2/cpsim-no-such-route-1/cpsim-no-such-route-2/cpsim-no-such-route-3");
  t.equal(siblingUrl("http://h:1/health"), "http://h:1/cpsim-no-such-route-0");
  t.equal(routeKey("post", "http://h:1/v2/conformance/retry/job-0a1b2c"), "POST http://h:1/v2/conformance/retry/*");
  t.equal(routeKey("POST", "http://h:1/v2/pods/x3en3attyg8m7p:stop"), "POST http://h:1/v2/pods/*:stop");
});

t.test("a 404 counts as a refusal only when it differs from a made-up path's", async (t) => {
  forgetRoutes();
  const server = await startTestServer((req, res) => {
    if (req.url.startsWith("/v2/conformance/retry/")) return sendJson(res, 404, { title: "no such job", status: 404 });
    if (req.url.startsWith("/v2/conformance/cancel/")) return sendJson(res, 409, { title: "job is COMPLETED", status: 409 });
    return sendJson(res, 404, { title: "Not Found", status: 404, detail: `no route ${req.url}` });
  });
  t.teardown(() => server.close());
  const client = Client.create({ timeoutMs: 2000, keys: { api: "sk-api-0123456789" } });
  t.teardown(() => client.close());
  const retry = await client.request({ method: "POST", url: `${server.url}/v2/conformance/retry/job-000001`, auth: { key: "api" } });
  await assertServedRefusal(client, retry, { key: "api" });
  t.equal(server.received.length, 2, "one probe of the made-up path");
  const again = await client.request({ method: "POST", url: `${server.url}/v2/conformance/retry/job-000002`, auth: { key: "api" } });
  await assertServedRefusal(client, again, { key: "api" });
  t.equal(server.received.length, 3, "the route's verdict is remembered, whatever the id");
  const cancel = await client.request({ method: "POST", url: `${server.url}/v2/conformance/cancel/job-000001` });
  await assertServedRefusal(client, cancel);
  t.equal(server.received.length, 4, "a 409 needs no probe");
  const runsync = await client.request({ method: "POST", url: `${server.url}/v2/conformance/runsync`, json: {} });
  const err = await assertServedRefusal(client, runsync).catch((e: unknown) => e);
  t.ok(err instanceof RouteMissing, "answered like a made-up path: no such route");
  t.match((err as Error).message, /^no such route: POST \/v2\/conformance\/runsync answered 404, as does the made-up path POST \/v2\/cpsim-no-such-route-1\/cpsim-no-such-route-2: the target has no such route, so its 404 is no refusal$/);
});
