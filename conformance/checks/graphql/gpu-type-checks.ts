/**
 * `gpuTypes` and its `lowestPrice` field: the fields each offers, their types, the optional
 * `{id}` filter and the stockStatus enum. These only read, so their properties afford more runs.
 */
import fc from "fast-check";
import { STOCK_STATUSES } from "../../../sim/api/schemas/graphql.ts";
import { registerCheck } from "../../check-registry.ts";
import type { CheckContext, FailureInput } from "../../check.ts";
import { schemaErrors, statedOnly } from "../support/schema.ts";
import { gqlString } from "./graphql-literal.ts";
import { describe, gql, type GqlAnswer } from "./graphql-request.ts";
import { isObj, nonEmptyString, show, type Obj } from "./json-shape.ts";
import { checkProperty, failWith, Inconclusive } from "./property.ts";
import { missingSelections } from "./selection-check.ts";
import { STATED_GPU_TYPE } from "./pod-types.ts";

const LOWEST_PRICE_FIELDS = "uninterruptablePrice stockStatus availableGpuCounts";

export interface PriceAsk {
  readonly gpuCount: number;
  /** Undefined: the argument is left out (it is optional). */
  readonly secureCloud: boolean | undefined;
}

const priceAskArb: fc.Arbitrary<PriceAsk> = fc.record({
  gpuCount: fc.constantFrom(1, 2, 4),
  secureCloud: fc.constantFrom<boolean | undefined>(undefined, true, false),
});

function lowestPriceArgs(ask: PriceAsk): string {
  return `{gpuCount: ${ask.gpuCount}${ask.secureCloud === undefined ? "" : `, secureCloud: ${ask.secureCloud}`}}`;
}

export function gpuTypesDocument(ask: PriceAsk): string {
  return `{ gpuTypes { id displayName memoryInGb secureCloud communityCloud lowestPrice(input: ${lowestPriceArgs(ask)}) { ${LOWEST_PRICE_FIELDS} } } }`;
}

interface TypesRead {
  readonly doc: string;
  readonly answer: GqlAnswer;
  readonly types: Obj[];
}

/** The list, or the failure of a query that should have succeeded. */
async function readTypes(ctx: CheckContext, ask: PriceAsk): Promise<TypesRead | FailureInput> {
  const doc = gpuTypesDocument(ask);
  const answer = await gql(ctx, doc);
  const list = answer.data?.gpuTypes;
  if (!answer.ok || !Array.isArray(list)) {
    return { expected: `a list of GPU types in {data: {gpuTypes: [...]}} for ${doc} ("${ctx.rule.spec}"); got ${describe(answer)}`, exchange: answer.res.exchange };
  }
  return { doc, answer, types: list.filter(isObj) };
}

const isRead = (r: TypesRead | FailureInput): r is TypesRead => "types" in r;

/** A property over lowestPrice arguments, judging each read GPU type list. */
function overPrices(ctx: CheckContext, judge: (read: TypesRead, ask: PriceAsk) => FailureInput | Inconclusive | undefined) {
  return checkProperty(
    ctx,
    priceAskArb,
    async (ask) => {
      const read = await readTypes(ctx, ask);
      if (!isRead(read)) return read;
      if (read.types.length === 0) return new Inconclusive("the target's gpuTypes lists no GPU type");
      return judge(read, ask);
    },
    { numRuns: Math.max(1, Math.min(ctx.options.runs, 6)) },
  );
}

const prices = (types: readonly Obj[]): Obj[] => types.map((t) => t.lowestPrice).filter(isObj);

registerCheck(
  "graphql.gpu-types.fields",
  async (ctx) => {
    const rule = `("${ctx.rule.spec}")`;
    const read = await readTypes(ctx, { gpuCount: 1, secureCloud: undefined });
    if (!isRead(read)) return failWith(ctx, read);
    if (read.types.length === 0) return ctx.skip("the target's gpuTypes lists no GPU type, so no field can be judged");
    const missing = missingSelections(read.doc, read.answer.data);
    if (missing.length > 0) return failWith(ctx, { expected: `every GPU type offering id, displayName, memoryInGb, secureCloud, communityCloud, lowestPrice ${rule}; missing: ${missing.join(", ")}`, exchange: read.answer.res.exchange });
    const ids = read.types.map((t) => t.id).filter(nonEmptyString);
    if (ids.length === 0) return failWith(ctx, { expected: `GPU types with an id ${rule}; none has a non-empty string id`, exchange: read.answer.res.exchange });
    // The optional `{id}` input: the answer is that type.
    return checkProperty(
      ctx,
      fc.constantFrom(...ids),
      async (id) => {
        const doc = `{ gpuTypes(input: {id: ${gqlString(id)}}) { id displayName } }`;
        const answer = await gql(ctx, doc);
        const list = answer.data?.gpuTypes;
        if (!answer.ok || !Array.isArray(list)) return { expected: `a list in {data: {gpuTypes: [...]}} for ${doc} (gpuTypes takes an optional {id}) ${rule}; got ${describe(answer)}`, exchange: answer.res.exchange };
        const got = list.map((t) => (isObj(t) ? t.id : t));
        if (got.length === 0 || got.some((x) => x !== id)) {
          return { expected: `only the GPU type ${JSON.stringify(id)}, which gpuTypes listed, for gpuTypes(input: {id}) ${rule}; got ids ${show(got)}`, exchange: answer.res.exchange };
        }
        return undefined;
      },
      { numRuns: Math.max(1, Math.min(ctx.options.runs, 6)) },
    );
  },
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.lowest-price.fields",
  (ctx) =>
    overPrices(ctx, (read, ask) => {
      const offered = prices(read.types);
      if (offered.length === 0) return new Inconclusive(`no GPU type had a lowestPrice for ${lowestPriceArgs(ask)}`);
      const missing = missingSelections(read.doc, read.answer.data);
      if (missing.length === 0) return undefined;
      return {
        expected: `lowestPrice(input: ${lowestPriceArgs(ask)}) offering uninterruptablePrice, stockStatus, availableGpuCounts ("${ctx.rule.spec}"); missing: ${missing.join(", ")}`,
        exchange: read.answer.res.exchange,
      };
    }),
  { needs: { keys: ["api"] } },
);

// The GPU type's members whose type the sentence states: STATED_GPU_TYPE (pod-types.ts).
registerCheck(
  "graphql.gpu-type.types",
  (ctx) =>
    overPrices(ctx, (read, ask) => {
      const problems: string[] = [];
      read.types.forEach((t, i) => {
        for (const e of statedOnly(ctx, schemaErrors("GraphqlGpuType", t), STATED_GPU_TYPE)) problems.push(`gpuTypes[${i}]${e}`);
        const lp = t.lowestPrice;
        // A price may be absent where nothing is offered; where GPUs are offered it is a number.
        const offered = isObj(lp) && Array.isArray(lp.availableGpuCounts) && lp.availableGpuCounts.length > 0;
        if (offered && typeof lp.uninterruptablePrice !== "number") {
          problems.push(`gpuTypes[${i}].lowestPrice.uninterruptablePrice: ${show(lp.uninterruptablePrice)} where availableGpuCounts offers GPUs, not a number`);
        }
      });
      if (problems.length === 0) return undefined;
      return {
        expected: `GPU types typed as the spec says, for lowestPrice(input: ${lowestPriceArgs(ask)}) ("${ctx.rule.spec}"); ${problems.slice(0, 8).join("; ")}`,
        exchange: read.answer.res.exchange,
      };
    }),
  { needs: { keys: ["api"] } },
);

registerCheck(
  "graphql.stock-status-enum",
  (ctx) =>
    overPrices(ctx, (read, ask) => {
      const offered = prices(read.types);
      if (offered.length === 0) return new Inconclusive(`no GPU type had a lowestPrice for ${lowestPriceArgs(ask)}`);
      const bad = read.types
        .map((t) => ({ id: t.id, status: isObj(t.lowestPrice) ? t.lowestPrice.stockStatus : undefined, priced: isObj(t.lowestPrice) }))
        .filter((x) => x.priced && !(STOCK_STATUSES as readonly unknown[]).includes(x.status));
      if (bad.length === 0) return undefined;
      return {
        expected: `stockStatus one of ${STOCK_STATUSES.join(", ")} for lowestPrice(input: ${lowestPriceArgs(ask)}) ("${ctx.rule.spec}"); got ${bad
          .slice(0, 5)
          .map((b) => `${show(b.status)} for ${show(b.id)}`)
          .join(", ")}`,
        exchange: read.answer.res.exchange,
      };
    }),
  { needs: { keys: ["api"] } },
);
