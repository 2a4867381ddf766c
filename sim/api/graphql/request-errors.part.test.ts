// Requests that are not GraphQL, do not parse or validate, break a limit, name no operation, or
// mutate with a read-only key: each answers its status with the standard errors envelope and
// runs nothing.
import t from "tap";
import type { ApiResponse } from "../types.ts";
import { executeGraphql } from "./execute-graphql.ts";
import { defaultGraphqlLimits } from "./limits.ts";
import { pythonDeployMutation, pythonStopMutation } from "./python-client-documents.ts";
import { ALPHA, ALPHA_READ, RTX4090, checkEnvelope, gql, newPlatform } from "./test-support.ts";

const platform = newPlatform();
const raw = (body: unknown): ApiResponse => {
  const r = executeGraphql(platform, ALPHA, body, platform.now);
  checkEnvelope(r);
  return r;
};
const codeOf = (r: ApiResponse) => (r.body as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code;
const messageOf = (r: ApiResponse) => (r.body as { errors: Array<{ message: string }> }).errors[0]!.message;

t.test("a body without a string query: 400 BAD_REQUEST", async (t) => {
  for (const body of [undefined, null, 42, "{ myself { id } }", {}, { query: null }, { query: 7 }, { query: { a: 1 } }, [{ query: "{ myself { id } }" }]]) {
    const r = raw(body);
    t.equal(r.status, 400, JSON.stringify(body));
    t.equal(codeOf(r), "BAD_REQUEST");
  }
  t.match(messageOf(raw({})), /has no query; send \{"query"/);
  t.match(messageOf(raw([{ query: "{ myself { id } }" }])), /Batched requests are not supported/);
  t.equal(codeOf(raw({ query: "{ myself { id } }", variables: [1] })), "BAD_REQUEST");
  t.equal(codeOf(raw({ query: "{ myself { id } }", variables: "{not json" })), "BAD_REQUEST");
  t.equal(codeOf(raw({ query: "{ myself { id } }", operationName: 3 })), "BAD_REQUEST");
  t.equal(raw({ query: "{ myself { id } }", variables: null, operationName: null, extensions: {} }).status, 200, "null variables and operationName are fine");
});

t.test("a document that does not parse: 400 GRAPHQL_PARSE_FAILED with a location", async (t) => {
  const r = raw({ query: "{ myself { id " });
  t.equal(r.status, 400);
  t.equal(codeOf(r), "GRAPHQL_PARSE_FAILED");
  t.match((r.body as any).errors[0], { message: /Syntax Error/, locations: [{ line: 1 }] });
});

t.test("a document that does not validate: 400 GRAPHQL_VALIDATION_FAILED, every error listed", async (t) => {
  const r = raw({ query: "{ myself { id nope } gpuTypes { idd } }" });
  t.equal(r.status, 400);
  const errors = (r.body as any).errors as any[];
  t.equal(errors.length, 2);
  for (const e of errors) t.equal(e.extensions.code, "GRAPHQL_VALIDATION_FAILED");
  t.match(errors[0].message, /Cannot query field "nope" on type "User"/);
  t.equal(codeOf(raw({ query: "mutation { podTerminate(input: {podId: \"x\"}) { id } }" })), "GRAPHQL_VALIDATION_FAILED", "a selection on the Void scalar");
  t.equal(codeOf(raw({ query: "mutation { podStop(input: {}) { id } }" })), "GRAPHQL_VALIDATION_FAILED", "a missing required input field");
  t.equal(codeOf(raw({ query: "subscription { myself { id } }" })), "GRAPHQL_VALIDATION_FAILED", "no subscriptions");
  t.match(messageOf(raw({ query: "subscription { myself { id } }" })), /no subscription operations/);
});

t.test("depth, field-count, token and size limits: 400", async (t) => {
  let chain = "kind";
  for (let i = 0; i < 20; i++) chain = `ofType { ${chain} }`;
  const deep = raw({ query: `{ __schema { types { fields { type { ${chain} } } } } }` });
  t.equal(deep.status, 400);
  t.equal(codeOf(deep), "QUERY_TOO_COMPLEX");
  t.match(messageOf(deep), /nests fields \d+ levels deep; the limit is 15/);

  const fragment = `fragment P on Pod { ${Array.from({ length: 20 }, (_, i) => `f${i}: id`).join(" ")} }`;
  const wide = raw({ query: `{ myself { pods { ${Array.from({ length: 60 }, (_, i) => `a${i}: name ...P`).join(" ")} } } } ${fragment}` });
  t.equal(wide.status, 400, "fragments count once per spread");
  t.equal(codeOf(wide), "QUERY_TOO_COMPLEX");
  t.match(messageOf(wide), /more than 1000 fields/);

  const tokens = raw({ query: `{ ${"a ".repeat(defaultGraphqlLimits.maxTokens + 10)} }` });
  t.equal(tokens.status, 400);
  t.equal(codeOf(tokens), "QUERY_TOO_COMPLEX");
  t.match(messageOf(tokens), /more than 10000 tokens/);

  const big = raw({ query: `# ${"x".repeat(defaultGraphqlLimits.maxDocumentBytes)}\n{ myself { id } }` });
  t.equal(big.status, 400);
  t.equal(codeOf(big), "QUERY_TOO_LARGE");

  const intro = raw({ query: (await import("graphql")).getIntrospectionQuery() });
  t.equal(intro.status, 200, "graphql-js's introspection query passes the limits");
});

t.test("operation selection", async (t) => {
  const two = "query A { myself { id } } query B { gpuTypes { id } }";
  t.equal(codeOf(raw({ query: two })), "OPERATION_RESOLUTION_FAILURE");
  t.equal(codeOf(raw({ query: two, operationName: "C" })), "OPERATION_RESOLUTION_FAILURE");
  t.same(raw({ query: two, operationName: "A" }).body, { data: { myself: { id: "acct-alpha" } } });
});

t.test("mutations with a read-only key: 403 FORBIDDEN before anything runs; queries work", async (t) => {
  const p = newPlatform();
  const r = gql(p, ALPHA_READ, pythonDeployMutation({ name: "ro", imageName: "ubuntu", gpuTypeId: RTX4090 }));
  t.equal(r.status, 403);
  t.equal(r.body.errors![0]!.extensions.code, "FORBIDDEN");
  t.equal(p.pods.size, 0);
  const created = gql(p, ALPHA, pythonDeployMutation({ name: "rw", imageName: "ubuntu", gpuTypeId: RTX4090 })).body.data!.podFindAndDeployOnDemand.id;
  t.equal(gql(p, ALPHA_READ, pythonStopMutation(created)).status, 403);
  t.equal(p.pods.get("acct-alpha", created)!.status, "PROVISIONING");
  const mixed = gql(p, ALPHA_READ, `query Q { myself { id } } mutation M { podStop(input: {podId: "${created}"}) { id } }`, undefined, { operationName: "Q" });
  t.same(mixed.body, { data: { myself: { id: "acct-alpha" } } }, "the operation run decides, not the document");
  t.equal(gql(p, ALPHA_READ, "{ myself { pods { id } } }").body.data!.myself.pods.length, 1);
});

t.test("a mutation over GET: 405 with Allow: POST; queries over GET run", async (t) => {
  const p = newPlatform();
  const r = executeGraphql(p, ALPHA, { query: "mutation { podStop(input: {podId: \"x\"}) { id } }" }, p.now, { method: "GET" });
  checkEnvelope(r);
  t.equal(r.status, 405);
  t.equal(r.headers.allow, "POST");
  t.equal(codeOf(r), "METHOD_NOT_ALLOWED");
  t.equal(executeGraphql(p, ALPHA, { query: "{ myself { id } }" }, p.now, { method: "GET" }).status, 200);
});

t.test("no capacity: the real platform's sentence in errors, HTTP 200, nothing created", async (t) => {
  const p = newPlatform();
  const r = gql(p, ALPHA, pythonDeployMutation({ name: "huge", imageName: "ubuntu", gpuTypeId: RTX4090, gpuCount: 64 }));
  t.equal(r.status, 200);
  t.same(r.body.data, { podFindAndDeployOnDemand: null });
  t.equal(r.body.errors![0]!.message, "There are no longer any instances available with the requested specifications. Please refresh and try again.");
  t.equal(r.body.errors![0]!.extensions.code, "NO_CAPACITY");
  const cuda = gql(p, ALPHA, pythonDeployMutation({ name: "cuda", imageName: "ubuntu", gpuTypeId: RTX4090, allowedCudaVersions: ["9.0"] }));
  t.equal(cuda.body.errors![0]!.extensions.code, "NO_CAPACITY", "no host with those CUDA versions");
  t.equal(p.pods.size, 0);
});

t.test("an error no resolver raised on purpose (a bug) is INTERNAL_SERVER_ERROR; raised codes are kept", async (t) => {
  const { GraphQLError } = await import("graphql");
  const { formatError } = await import("./format-error.ts");
  t.equal(formatError(new GraphQLError("boom", { originalError: new TypeError("boom") }), "BAD_USER_INPUT").extensions.code, "INTERNAL_SERVER_ERROR");
  t.equal(formatError(new GraphQLError("x", { extensions: { code: "NOT_FOUND" } }), "BAD_USER_INPUT").extensions.code, "NOT_FOUND");
  t.equal(formatError(new GraphQLError("x"), "GRAPHQL_VALIDATION_FAILED").extensions.code, "GRAPHQL_VALIDATION_FAILED");
});
