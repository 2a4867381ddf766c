/**
 * The judgement of graphql.env-key-value: a GraphQL pod's `env` is a list of `KEY=value`
 * strings, holding one for every variable sent as `{key, value}`. The platform may add
 * variables of its own; a value may itself hold `=` (the name ends at the first one).
 */
import type { EnvPairs } from "./inputs.ts";
import { show } from "./json-shape.ts";

/** What is wrong with an answer's env for the pairs sent, or nothing. */
export function envProblems(sent: EnvPairs, env: unknown): string[] {
  if (!Array.isArray(env)) return [`env is ${show(env)}, not a list of strings`];
  const problems: string[] = [];
  for (const e of env) if (typeof e !== "string" || !/^[^=]+=/.test(e)) problems.push(`entry ${show(e)} is not a KEY=value string`);
  for (const [k, v] of sent) if (!env.includes(`${k}=${v}`)) problems.push(`no entry ${JSON.stringify(`${k}=${v}`)} for the variable sent as {key: ${JSON.stringify(k)}, value: ${JSON.stringify(v)}}`);
  return problems;
}
