/**
 * The GraphQL envelopes. The spec: a successful answer is `{data: {...}}` holding the selected
 * fields. choices.md (strict only): errors come as `{errors: [{message, extensions: {code}}]}`,
 * and an unauthenticated call answers 401.
 */
import fc from "fast-check";
import { registerCheck } from "../../check-registry.ts";
import type { FailureInput } from "../../check.ts";
import { schemaErrors } from "../support/schema.ts";
import { describe, gql, type GqlAnswer } from "./graphql-request.ts";
import { isObj } from "./json-shape.ts";
import { checkProperty, failWith } from "./property.ts";
import { missingSelections } from "./selection-check.ts";

const GPU_FIELDS = ["id", "displayName", "memoryInGb", "secureCloud", "communityCloud"] as const;

interface Selection {
  readonly gpuFields: readonly string[];
  readonly gpuAlias: string | null;
  readonly pods: boolean;
  readonly podsAlias: string | null;
}

/** Queries over what every account can read, with aliases sometimes: no pod is made. */
const selectionArb: fc.Arbitrary<Selection> = fc.record({
  gpuFields: fc.shuffledSubarray([...GPU_FIELDS], { minLength: 1 }),
  gpuAlias: fc.option(fc.stringMatching(/^[a-z][A-Za-z0-9]{0,7}$/).map((s) => `g${s}`), { nil: null }),
  pods: fc.boolean(),
  podsAlias: fc.option(fc.stringMatching(/^[a-z][A-Za-z0-9]{0,7}$/).map((s) => `m${s}`), { nil: null }),
});

function documentOf(s: Selection): string {
  const gpu = `${s.gpuAlias ? `${s.gpuAlias}: ` : ""}gpuTypes { ${s.gpuFields.join(" ")} }`;
  const pods = s.pods ? ` ${s.podsAlias ? `${s.podsAlias}: ` : ""}myself { pods { id name } }` : "";
  return `{ ${gpu}${pods} }`;
}

registerCheck(
  "graphql.envelope",
  (ctx) =>
    checkProperty(
      ctx,
      selectionArb,
      async (s) => {
        const doc = documentOf(s);
        const answer = await gql(ctx, doc);
        const rule = `("${ctx.rule.spec}")`;
        if (!answer.ok) return { expected: `a 2xx answer {data: {...}} without errors for the valid query ${doc} ${rule}; got ${describe(answer)}`, exchange: answer.res.exchange };
        const missing = missingSelections(doc, answer.data);
        if (missing.length > 0) return { expected: `{data} holding every selected field of ${doc} ${rule}; missing: ${missing.join(", ")}`, exchange: answer.res.exchange };
        return undefined;
      },
      { numRuns: Math.max(1, Math.min(ctx.options.runs, 12)) },
    ),
  { needs: { keys: ["api"] } },
);

/** What makes an errors envelope wrong, or nothing. */
function envelopeProblems(answer: GqlAnswer): string[] {
  if (!isObj(answer.res.json)) return [`the body is not a JSON object: ${answer.res.text.slice(0, 200)}`];
  const problems = schemaErrors("GraphqlErrorEnvelope", answer.res.json);
  (answer.errors ?? []).forEach((e, i) => {
    const code = isObj(e) && isObj(e.extensions) ? e.extensions.code : undefined;
    if (typeof code !== "string") problems.push(`/errors/${i}/extensions/code: missing or not a string`);
  });
  return problems;
}

registerCheck(
  "graphql.errors-envelope",
  async (ctx) => {
    const rule = `("${ctx.rule.spec}")`;
    const failures: FailureInput[] = [];
    const unauthenticated = await gql(ctx, "{ gpuTypes { id } }", null);
    if (unauthenticated.res.status !== 401) {
      failures.push({ expected: `HTTP 401 for a call without a key ${rule}; got HTTP ${unauthenticated.res.status}`, exchange: unauthenticated.res.exchange });
    }
    const probes: Array<[string, GqlAnswer]> = [["a call without a key", unauthenticated]];
    for (const [what, doc] of [
      ["a document that does not parse", "{ gpuTypes { id "],
      ["a field the schema does not have", "{ gpuTypes { cpsimNoSuchField } }"],
      ["podStop of a pod that does not exist", 'mutation { podStop(input: {podId: "cpsim-gql-no-such-pod"}) { id desiredStatus } }'],
    ] as const) {
      probes.push([what, await gql(ctx, doc)]);
    }
    for (const [what, answer] of probes) {
      const problems = envelopeProblems(answer);
      if (answer.ok) problems.unshift("the answer reports success");
      if (problems.length > 0) {
        failures.push({ expected: `the {"errors": [{"message", "extensions": {"code"}}]} envelope for ${what} ${rule}; ${problems.slice(0, 5).join("; ")}`, exchange: answer.res.exchange });
      }
    }
    return failures.length > 0 ? failWith(ctx, ...failures) : ctx.pass();
  },
  { needs: { keys: ["api"] } },
);
