/**
 * auth.missing-key, auth.malformed-key, auth.invalid-key: Authentication rule 4, "A missing,
 * malformed, expired or invalid key gives 401", on REST v2, the job endpoints and GraphQL
 * (whose key is the `api_key` query parameter, rule 2). On REST the 401 is also an
 * application/problem+json ErrorResponse, as every REST error. fast-check draws the operation
 * and the credential; every operation is tried once first.
 */
import * as fc from "fast-check";
import type { CheckContext, CheckOutcome, FailureInput } from "../../check.ts";
import { registerCheck } from "../../check-registry.ts";
import { accepts } from "../support/statuses.ts";
import { surfacesFor, type AuthSurface } from "./auth-surfaces.ts";
import { undoCreation } from "./cleanup.ts";
import { describeCredential, invalidArb, malformedArb, missingArb, toAuth, type Credential, type Placement } from "./credentials.ts";
import { findFailure, fewRuns } from "./find-failure.ts";
import { gpuChoice, podBody } from "./pod-body.ts";
import { problemIssues, problemText } from "./problem-json.ts";

type CredentialArb = (placement: Placement, ctx: CheckContext, surface: AuthSurface) => fc.Arbitrary<Credential>;

const RULE_4 = 'Authentication rule 4: "A missing, malformed, expired or invalid key gives 401."';

async function judge(ctx: CheckContext, surface: AuthSurface, credential: Credential): Promise<FailureInput | undefined> {
  const res = await ctx.client.request(surface.request(ctx, toAuth(credential)));
  await undoCreation(ctx, surface.creates, res);
  const issues: string[] = [];
  if (!accepts(ctx, res.status)) issues.push(`the answer was ${res.status}`);
  else if (surface.interface === "rest") issues.push(...problemIssues(res));
  if (issues.length === 0) return undefined;
  const rest = surface.interface === "rest" ? `, with ${problemText(401)}` : "";
  return {
    expected: `401 Unauthorized for ${surface.name} ${describeCredential(credential)}${rest} (${RULE_4}); ${issues.join("; ")}`,
    exchange: res.exchange,
  };
}

function unauthorizedCheck(credentials: CredentialArb) {
  return async (ctx: CheckContext): Promise<CheckOutcome> => {
    const gpu = await gpuChoice(ctx);
    const surfaces = surfacesFor(ctx, gpu && podBody(gpu));
    const cases = fc.constantFrom(...surfaces).chain((s) => credentials(s.placement, ctx, s).map((c) => [s, c] as const));
    // One case per operation first, whatever the seed, then random ones.
    const examples = surfaces.map((s) => [s, fc.sample(credentials(s.placement, ctx, s), { seed: ctx.seed, numRuns: 1 })[0]] as const);
    const failure = await findFailure(ctx, cases, ([s, c]) => judge(ctx, s, c), { numRuns: fewRuns(ctx, 16), examples });
    return failure ? ctx.fail(failure) : ctx.pass();
  };
}

registerCheck("auth.missing-key", unauthorizedCheck((p) => missingArb(p)));
registerCheck("auth.malformed-key", unauthorizedCheck((p, ctx) => malformedArb(p, ctx.options.profile === "strict" ? ctx.keys : undefined)));
registerCheck("auth.invalid-key", unauthorizedCheck((p, ctx, s) => invalidArb(p, ctx.keys, s.interface === "jobs")));
