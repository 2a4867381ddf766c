// The transport under abuse: a malformed request pipelined after valid ones, CONNECT, and the
// control API's guard (token, Host, Origin).
import t from "tap";
import { bodyOf, call, rawExchange, startTestServer, statusOf } from "./test-helpers.ts";

t.test("a malformed request in a pipeline: the answers before it arrive, then a 400", async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.emulator.close());
  const get = "GET /_sim/clock HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  const { response } = await rawExchange(s.port, (send) => {
    send(get + get + "GET /_sim/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n");
  });
  const statuses = [...response.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]));
  t.same(statuses, [200, 200, 400], "two answers, then the refusal");
});

t.test("CONNECT is answered 405 with a problem body", async (t) => {
  const s = await startTestServer();
  t.teardown(() => s.emulator.close());
  const { response } = await rawExchange(s.port, (send) => {
    send("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n");
  });
  t.equal(statusOf(response), 405);
  t.match(bodyOf(response), { status: 405, detail: /not a proxy/ });
});

t.test("the control API: Host and Origin checked always, the token when set", async (t) => {
  const s = await startTestServer({ controlToken: "s3cret-token-1234" });
  t.teardown(() => s.emulator.close());
  const token = { "x-cpsim-control-token": "s3cret-token-1234" };
  t.equal((await call(s.url, "GET", "/_sim/clock")).status, 401, "no token");
  t.equal((await call(s.url, "GET", "/_sim/clock", { headers: { "x-cpsim-control-token": "wrong-token-0000" } })).status, 401);
  t.equal((await call(s.url, "GET", "/_sim/clock", { headers: token })).status, 200);
  const crossSite = await call(s.url, "POST", "/_sim/reset", { headers: { ...token, origin: "https://evil.example" } });
  t.equal(crossSite.status, 403, "a cross-origin POST is refused");
  t.match(crossSite.body.detail, /cross-origin/);
  t.equal((await call(s.url, "GET", "/_sim/clock", { headers: { ...token, origin: s.url } })).status, 200, "same origin is fine");
  const rebound = await call(s.url, "GET", "/_sim/clock", { headers: { ...token, host: "attacker.example:80" } });
  t.equal(rebound.status, 403, "a DNS-rebound Host is refused");

  const open = await startTestServer();
  t.teardown(() => open.emulator.close());
  t.equal((await call(open.url, "GET", "/_sim/clock")).status, 200, "no token set: none needed");
  t.equal((await call(open.url, "POST", "/_sim/reset", { headers: { origin: "http://localhost:9999" } })).status, 403, "but the Origin is still checked");
  t.equal(open.emulator.stats().internalErrors, 0);
});

t.test("serve flags: a control token by default with --clock real, none with manual or 'none'", async (t) => {
  const { optionsFromFlags } = await import("./cli.ts");
  const base = { port: 0, host: "127.0.0.1", seed: 1, speed: 1, control: true, "max-output-mb": 16, "results-budget-mb": 256 };
  t.match(optionsFromFlags({ ...base, clock: "real" }).controlToken, /^[0-9a-f]{32}$/);
  t.equal(optionsFromFlags({ ...base, clock: "manual" }).controlToken, undefined);
  t.equal(optionsFromFlags({ ...base, clock: "real", "control-token": "none" }).controlToken, undefined);
  t.equal(optionsFromFlags({ ...base, clock: "manual", "control-token": "my-token-123" }).controlToken, "my-token-123");
  t.throws(() => optionsFromFlags({ ...base, clock: "real", "control-token": "short" }), /8 to 256/);
  t.same(optionsFromFlags({ ...base, clock: "manual", "max-output-mb": 1, "results-budget-mb": 2 }).memory, { maxOutputBytes: 1048576, resultsBudgetBytes: 2097152 });
});
