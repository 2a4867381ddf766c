/**
 * How GraphQL authenticates. The spec: the key travels in the `api_key` query parameter, and a
 * missing, malformed, expired or invalid key gives 401 (Authentication, rules 2 and 4).
 * choices.md adds `Authorization: Bearer` (newer official clients), judged only under strict.
 */
import fc from "fast-check";
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, FailureInput } from "../../check.ts";
import type { Auth } from "../../client.ts";
import { accepts, acceptedText } from "../support/statuses.ts";
import { describe, gql } from "./graphql-request.ts";
import { checkProperty, failWith } from "./property.ts";

const QUERY = "{ gpuTypes { id } }";
/** A mutation on a pod no target has: without a key it must be refused before anything runs. */
const MUTATION = 'mutation { podStop(input: {podId: "cpsim-gql-no-such-pod"}) { id desiredStatus } }';

/** Keys no target issued: made-up ones, an empty value, and the real key with a tail added. */
function badKeyArb(ctx: CheckContext): fc.Arbitrary<Auth> {
  const real = ctx.keys.api ?? "";
  const known = new Set(Object.values(ctx.keys));
  return fc
    .oneof(
      fc.stringMatching(/^[A-Za-z0-9_-]{1,48}$/),
      fc.constantFrom("", "null", "undefined", "Bearer"),
      // Recorded as `${CPSIM_API_KEY}<tail>`: the reproduction never shows the key.
      fc.stringMatching(/^[A-Za-z0-9]{1,4}$/).map((tail) => `${real}${tail}`),
    )
    .filter((k) => !known.has(k))
    .map((literal): Auth => ({ literal, via: "query" }));
}

registerCheck(
  "graphql.auth-api-key",
  async (ctx) => {
    const rule = `("${ctx.rule.spec}"; Authentication rule 4: a missing, malformed, expired or invalid key gives 401)`;
    const valid = await gql(ctx, QUERY);
    if (!valid.ok) {
      return failWith(ctx, { expected: `the query answered with {data} for a valid key sent as ?api_key= ${rule}; got ${describe(valid)}`, exchange: valid.res.exchange });
    }
    const failures: FailureInput[] = [];
    for (const doc of [QUERY, MUTATION]) {
      const missing = await gql(ctx, doc, null);
      if (!accepts(ctx, missing.res.status)) {
        failures.push({ expected: `${acceptedText(ctx)} for a request without api_key ${rule}; got HTTP ${missing.res.status}`, exchange: missing.res.exchange });
      }
    }
    if (failures.length > 0) return failWith(ctx, ...failures);
    return checkProperty(
      ctx,
      badKeyArb(ctx),
      async (auth) => {
        const answer = await gql(ctx, QUERY, auth);
        if (accepts(ctx, answer.res.status)) return undefined;
        return { expected: `${acceptedText(ctx)} for a key the target never issued in api_key ${rule}; got HTTP ${answer.res.status}`, exchange: answer.res.exchange };
      },
      { numRuns: Math.max(1, Math.min(ctx.options.runs, 8)), shrinkBudget: 20 },
    );
  },
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.auth-bearer",
  async (ctx) => {
    const rule = `("${ctx.rule.spec}")`;
    const bearer = await gql(ctx, QUERY, { key: "api", via: "bearer" });
    if (!bearer.ok) {
      return failWith(ctx, { expected: `the query answered with {data} for a valid key sent only as Authorization: Bearer ${rule}; got ${describe(bearer)}`, exchange: bearer.res.exchange });
    }
    const bad = await gql(ctx, QUERY, { literal: "cpsim-gql-not-a-key", via: "bearer" });
    if (bad.res.status !== 401) {
      return failWith(ctx, { expected: `401 for an invalid key sent as Authorization: Bearer ${rule}; got HTTP ${bad.res.status}`, exchange: bad.res.exchange });
    }
    return ctx.pass();
  },
  { needs: { keys: ["api"] } },
);

