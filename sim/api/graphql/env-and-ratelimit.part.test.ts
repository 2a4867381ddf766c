// GraphQL agrees with REST on two leftovers of issue 23: saveTemplate and saveEndpoint refuse an
// env key "__proto__" (REST refuses the body), and a document of several mutations answers with
// a RateLimit header that counts every unit it took, not only the request's first.
import t from "tap";
import { PlatformApi } from "../platform-api.ts";
import { operations } from "../operations.ts";
import { newPlatform } from "./test-support.ts";

const KEY = "Bearer cpsim_alpha_full_7f3a9c2e41b6d805";

function post(api: PlatformApi, query: string) {
  const outcome = api.handle({ method: "POST", path: "/graphql", query: {}, headers: { authorization: KEY }, body: { query } });
  if (outcome.kind !== "response") throw new Error("a GraphQL answer never waits");
  return outcome.response as { status: number; headers: Record<string, string>; body: { data?: Record<string, unknown>; errors?: { message: string }[] } };
}

const remaining = (header: string | undefined) => Number(/"minute";r=(\d+)/.exec(header ?? "")?.[1]);

t.test("saveTemplate and saveEndpoint refuse an env key __proto__", async (t) => {
  const api = new PlatformApi(newPlatform(), operations);
  const template = post(api, 'mutation { saveTemplate(input: {name: "t", imageName: "u", env: [{key: "__proto__", value: "x"}]}) { id } }');
  t.equal(template.body.data?.saveTemplate, null);
  t.match(template.body.errors?.[0]?.message, /saveTemplate: env key "__proto__" is not allowed/);
  const endpoint = post(api, 'mutation { saveEndpoint(input: {name: "e", gpuIds: "AMPERE_16", template: {name: "et", imageName: "u", env: [{key: "__proto__", value: "x"}]}}) { id } }');
  t.equal(endpoint.body.data?.saveEndpoint ?? null, null);
  t.match(endpoint.body.errors?.[0]?.message, /saveEndpoint: env key "__proto__" is not allowed/);
  const fine = post(api, 'mutation { saveTemplate(input: {name: "t2", imageName: "u", env: [{key: "proto", value: "x"}]}) { id } }');
  t.type((fine.body.data?.saveTemplate as { id?: string } | undefined)?.id, "string", "another key is kept");
});

t.test("a multi-mutation answer's RateLimit header shows all units charged", async (t) => {
  const api = new PlatformApi(newPlatform(), operations);
  const one = remaining(post(api, "query { myself { id } }").headers["ratelimit"]);
  const three = post(api, 'mutation { a: saveTemplate(input: {name: "a", imageName: "u"}) { id } b: saveTemplate(input: {name: "b", imageName: "u"}) { id } c: saveTemplate(input: {name: "c", imageName: "u"}) { id } }');
  t.equal(three.status, 200);
  t.equal(remaining(three.headers["ratelimit"]), one - 3, "three units, and the header says so");
  const next = remaining(post(api, "query { myself { id } }").headers["ratelimit"]);
  t.equal(next, one - 4, "the next answer agrees");
});
