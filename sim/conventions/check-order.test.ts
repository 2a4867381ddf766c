/**
 * The open-choice space's `checkOrder` (check-order.ts) over a real server: what an unknown path,
 * and a method its path does not serve, answer under each order of the route, key and rate-limit
 * checks; known routes answer alike under every order.
 */
import t from "tap";
import { startEmulator } from "../http/index.ts";
import { EMULATOR_CONVENTIONS, type Conventions } from "./index.ts";

async function target(checkOrder: Conventions["checkOrder"], more: Partial<Conventions> = {}) {
  const emulator = await startEmulator({ host: "127.0.0.1", port: 0, seed: 1, clock: "manual", conventions: { ...EMULATOR_CONVENTIONS, checkOrder, lists: "bare", ...more } });
  const key = emulator.apiKeys.find((k) => k.access === "full")!.key;
  const call = async (method: string, path: string, withKey = true) => {
    const res = await fetch(`${emulator.baseUrl}${path}`, { method, headers: withKey ? { authorization: `Bearer ${key}` } : {} });
    const text = await res.text();
    return { status: res.status, rate: res.headers.get("ratelimit"), allow: res.headers.get("allow"), text };
  };
  return { call, stop: () => emulator.close() };
}

const remaining = (rate: string | null) => Number(/"minute";r=(\d+)/.exec(rate ?? "")?.[1]);

t.test("route-auth-rate (the emulator's): an unknown path 404 and a wrong method 405 whatever the key, uncounted", async (t) => {
  const { call, stop } = await target("route-auth-rate");
  t.teardown(stop);
  t.equal((await call("GET", "/v2/no-such-thing", false)).status, 404);
  const before = remaining((await call("GET", "/v2/pods")).rate);
  const unknown = await call("GET", "/v2/no-such-thing");
  t.same([unknown.status, unknown.rate], [404, null], "no rate-limit headers: the request was not counted");
  const wrong = await call("PUT", "/v2/pods", false);
  t.same([wrong.status, wrong.allow !== null], [405, true]);
  t.equal(remaining((await call("GET", "/v2/pods")).rate), before - 1, "only the two known reads were counted");
});

t.test("auth-route-rate: no valid key 401 on any path; with one, 404/405 uncounted", async (t) => {
  const { call, stop } = await target("auth-route-rate");
  t.teardown(stop);
  t.equal((await call("GET", "/v2/no-such-thing", false)).status, 401, "the key before the route");
  t.equal((await call("PUT", "/v2/pods", false)).status, 401, "a wrong method without a key: 401");
  t.equal((await call("GET", "/v2/pods", false)).status, 401);
  const before = remaining((await call("GET", "/v2/pods")).rate);
  t.same([(await call("GET", "/v2/no-such-thing")).status, (await call("PUT", "/v2/pods")).status], [404, 405]);
  t.equal(remaining((await call("GET", "/v2/pods")).rate), before - 1, "uncounted");
});

t.test("auth-rate-route: an unknown path costs a unit and answers 429 once a window is spent; auth-rate-route-no-405: no 405", async (t) => {
  const { call, stop } = await target("auth-rate-route");
  t.teardown(stop);
  t.equal((await call("GET", "/v2/no-such-thing", false)).status, 401);
  const first = await call("GET", "/v2/no-such-thing");
  t.equal(first.status, 404);
  t.ok(remaining(first.rate) >= 0, "the 404 carries RateLimit");
  const wrong = await call("PUT", "/v2/pods");
  t.same([wrong.status, remaining(wrong.rate)], [405, remaining(first.rate) - 1], "a wrong method is counted too");
  let last = wrong;
  // The window's remaining units, and one more (bounded: the quotas are the fixtures').
  const units = remaining(wrong.rate);
  t.ok(units < 5000, `a window small enough to spend here (${units} left)`);
  for (let i = 0; i <= units && last.status !== 429; i++) last = await call("GET", "/v2/no-such-thing");
  t.equal(last.status, 429, "the rate limit before the route");
  const other = await target("auth-rate-route-no-405");
  t.teardown(other.stop);
  const noAllow = await other.call("PUT", "/v2/pods");
  t.same([noAllow.status, noAllow.allow, remaining(noAllow.rate) >= 0], [404, null, true]);
  t.equal((await other.call("OPTIONS", "/v2/pods")).status, 204, "OPTIONS is still the transport's");
});

t.test("under every order, a route the point does not serve answers as a path nobody serves (a probe cannot tell them apart)", async (t) => {
  for (const order of ["route-auth-rate", "auth-route-rate", "auth-rate-route"] as const) {
    const { call, stop } = await target(order, { actions: "verb", memberOrder: "reversed" });
    const hidden = await call("POST", "/v2/pods/p1/action");
    const unknown = await call("POST", "/v2/pods/p1/no-such-route");
    t.same([hidden.status, hidden.text.replace("/action", "<x>")], [unknown.status, unknown.text.replace("/no-such-route", "<x>")], order);
    await stop();
  }
});
