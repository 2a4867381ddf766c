/**
 * Shared by conform and proxy (one module judges an answer, whoever asked for it).
 * The rules about the rate-limit headers of successful answers, each a judgement of one answer:
 * - ratelimit.headers-present: both headers are there ("Both headers also accompany successful
 *   responses");
 * - ratelimit.headers-well-formed: RateLimit has `r` and `t`, RateLimit-Policy `q` and `w`, for
 *   one member per window, the same windows in both, r <= q and t <= w;
 * - ratelimit.policy-windows: the windows are minute, hour and day of 60, 3600 and 86400 s;
 * - ratelimit.structured-fields (choices.md, strict only): both are RFC 8941 lists, parsed
 *   strictly, members named by strings or tokens, parameters integers.
 */
import type { AnswerView } from "./answer.ts";
import { readLimits, readPolicy } from "../checks/auth/ratelimit/read-rate-limit.ts";

export function presenceProblem(res: Pick<AnswerView, "headers">): string | undefined {
  const missing = ["RateLimit", "RateLimit-Policy"].filter((h) => !res.headers[h.toLowerCase()]?.trim());
  return missing.length ? `no ${missing.join(" and no ")} header` : undefined;
}

function duplicates(names: readonly string[]): string[] {
  return names.filter((n, i) => names.indexOf(n) !== i);
}

export function wellFormedProblems(res: Pick<AnswerView, "headers">): string[] {
  const limits = readLimits(res.headers["ratelimit"]);
  const policy = readPolicy(res.headers["ratelimit-policy"]);
  const problems: string[] = [];
  if (!limits.ok) problems.push(limits.error);
  if (!policy.ok) problems.push(policy.error);
  if (!limits.ok || !policy.ok) return problems;
  if (limits.members.length === 0) problems.push("RateLimit has no member");
  if (policy.members.length === 0) problems.push("RateLimit-Policy has no member");
  for (const m of limits.members) {
    if (m.remaining === undefined) problems.push(`RateLimit "${m.name}" has no r`);
    if (m.reset === undefined) problems.push(`RateLimit "${m.name}" has no t`);
  }
  for (const m of policy.members) {
    if (m.quota === undefined) problems.push(`RateLimit-Policy "${m.name}" has no q`);
    if (m.window === undefined) problems.push(`RateLimit-Policy "${m.name}" has no w`);
    else if (m.window === 0) problems.push(`RateLimit-Policy "${m.name}" has w=0`);
  }
  const ln = limits.members.map((m) => m.name);
  const pn = policy.members.map((m) => m.name);
  for (const d of new Set(duplicates(ln))) problems.push(`RateLimit has two members for "${d}"`);
  for (const d of new Set(duplicates(pn))) problems.push(`RateLimit-Policy has two members for "${d}"`);
  const onlyL = ln.filter((n) => !pn.includes(n));
  const onlyP = pn.filter((n) => !ln.includes(n));
  if (onlyL.length) problems.push(`RateLimit names windows RateLimit-Policy does not: ${onlyL.join(", ")}`);
  if (onlyP.length) problems.push(`RateLimit-Policy names windows RateLimit does not: ${onlyP.join(", ")}`);
  for (const m of limits.members) {
    const p = policy.members.find((x) => x.name === m.name);
    if (!p) continue;
    if (m.remaining !== undefined && p.quota !== undefined && m.remaining > p.quota) problems.push(`"${m.name}" has r=${m.remaining} above its quota q=${p.quota}`);
    if (m.reset !== undefined && p.window !== undefined && m.reset > p.window) problems.push(`"${m.name}" resets in t=${m.reset} s, beyond its window w=${p.window}`);
  }
  return problems;
}

/** The spec's windows: "three windows, `minute`, `hour` and `day`" of "(60, 3600, 86400)" seconds. */
export const SPEC_WINDOWS: Readonly<Record<string, number>> = { minute: 60, hour: 3600, day: 86400 };

export function policyWindowProblems(res: Pick<AnswerView, "headers">): string[] {
  const limits = readLimits(res.headers["ratelimit"]);
  const policy = readPolicy(res.headers["ratelimit-policy"]);
  // Unreadable headers are ratelimit.headers-well-formed's failure.
  if (!limits.ok || !policy.ok) return [];
  const problems: string[] = [];
  const expected = Object.keys(SPEC_WINDOWS);
  for (const [header, names] of [["RateLimit", limits.members.map((m) => m.name)], ["RateLimit-Policy", policy.members.map((m) => m.name)]] as const) {
    const missing = expected.filter((n) => !names.includes(n));
    const extra = names.filter((n) => !expected.includes(n));
    if (missing.length) problems.push(`${header} has no member for ${missing.join(", ")}`);
    if (extra.length) problems.push(`${header} has windows the spec does not name: ${extra.join(", ")}`);
  }
  for (const p of policy.members) {
    const want = SPEC_WINDOWS[p.name];
    if (want !== undefined && p.window !== want) problems.push(`"${p.name}" has w=${p.window ?? "(none)"}, not ${want}`);
  }
  return problems;
}

export function structuredFieldProblems(res: Pick<AnswerView, "headers">): string[] {
  const problems: string[] = [];
  for (const [header, read] of [["ratelimit", readLimits], ["ratelimit-policy", readPolicy]] as const) {
    const value = res.headers[header];
    if (value === undefined) {
      problems.push(`no ${header} header`);
      continue;
    }
    // The strict parse (parseRateLimit, parseRateLimitPolicy) as read once for every rule.
    const why = read(value).strictError;
    if (why !== undefined) problems.push(`${header}: ${why}`);
  }
  return problems;
}
