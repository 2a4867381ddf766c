// Documents built to hurt: nesting deep enough to overflow graphql-js's recursion, and many
// mutations in one envelope. Each answers 400 or 429 with the errors envelope and runs nothing.
import t from "tap";
import { getIntrospectionQuery } from "graphql";
import { documentNesting } from "./document-nesting.ts";
import { executeGraphql } from "./execute-graphql.ts";
import { ALPHA, BETA, checkEnvelope, newPlatform } from "./test-support.ts";

const codeOf = (body: unknown) => (body as { errors: Array<{ extensions: { code: string } }> }).errors[0]!.extensions.code;

t.test("nesting is measured on the text, strings and comments skipped", async (t) => {
  t.equal(documentNesting("{ a { b(x: [[1]]) } }", 100), 5);
  t.equal(documentNesting('{ a(s: "[[[[[[") }', 100), 2);
  t.equal(documentNesting('{ a(s: """ {{{{ \\""" {{{ """) }', 100), 2);
  t.equal(documentNesting("# {{{{{{\n{ a }", 100), 1);
  t.equal(documentNesting("[".repeat(10_000), 64), 65, "the scan stops past the cap");
});

t.test("deep arguments and selections: 400 QUERY_TOO_COMPLEX before parsing, never a stack overflow", async (t) => {
  const platform = newPlatform();
  const hostile = [
    `{ pod(input: {podId: ${"[".repeat(3000)}"x"${"]".repeat(3000)}}) { id } }`,
    `{ pod(input: ${"{id: ".repeat(2500)}"x"${"}".repeat(2500)}) { id } }`,
    `{ ${"a { ".repeat(4000)}b${" }".repeat(4000)} }`,
    `{ a(x: ${"(".repeat(3000)} }`,
  ];
  for (const query of hostile) {
    const r = executeGraphql(platform, ALPHA, { query }, platform.now);
    checkEnvelope(r);
    t.equal(r.status, 400);
    t.equal(codeOf(r.body), "QUERY_TOO_COMPLEX");
  }
  const intro = executeGraphql(platform, ALPHA, { query: getIntrospectionQuery() }, platform.now);
  t.equal(intro.status, 200, "introspection stays within the limits");
});

const cpuPod = (alias: string) => `${alias}: deployCpuPod(input: {name: "c", imageName: "ubuntu", instanceId: "cpu3c-2-4"}) { id }`;

t.test("a document of 400 aliased mutations is refused and creates nothing", async (t) => {
  const platform = newPlatform();
  const query = `mutation { ${Array.from({ length: 400 }, (_, i) => cpuPod(`p${i}`)).join(" ")} }`;
  const r = executeGraphql(platform, ALPHA, { query }, platform.now);
  checkEnvelope(r);
  t.equal(r.status, 400);
  t.equal(codeOf(r.body), "QUERY_TOO_COMPLEX");
  t.match((r.body as any).errors[0].message, /more than 10 fields/);
  t.equal(platform.pods.size, 0);
});

t.test("each mutation field counts against the rate limit, all or none", async (t) => {
  const platform = newPlatform();
  const remaining = () => platform.rateLimits.peek(BETA.accountId, platform.now).windows[0]!.remaining;
  const start = remaining();
  t.equal(start, 60);
  const five = `mutation { ${Array.from({ length: 5 }, (_, i) => cpuPod(`p${i}`)).join(" ")} }`;
  const r = executeGraphql(platform, BETA, { query: five }, platform.now);
  t.equal(r.status, 200);
  t.equal(Object.keys((r.body as any).data).length, 5);
  // The envelope's own unit is taken by PlatformApi before execution; here the other four.
  t.equal(remaining(), start - 4);
  // Use up all but three units; a ten-mutation document then needs nine more and is refused whole.
  platform.rateLimits.check(BETA.accountId, platform.now, { cost: remaining() - 3 });
  const pods = platform.pods.size;
  const ten = `mutation { ${Array.from({ length: 10 }, (_, i) => cpuPod(`q${i}`)).join(" ")} }`;
  const refused = executeGraphql(platform, BETA, { query: ten }, platform.now);
  checkEnvelope(refused);
  t.equal(refused.status, 429);
  t.equal(codeOf(refused.body), "RATE_LIMITED");
  t.ok(refused.headers["retry-after"]);
  t.equal(platform.pods.size, pods, "nothing ran");
  t.equal(remaining(), 3, "a refused document takes no quota");
});
