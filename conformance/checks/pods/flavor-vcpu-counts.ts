/**
 * The vCPU counts a CPU flavor's catalog entry offers, in the shapes catalogs state them: a list
 * (`vcpu.allowed`, `vcpuCounts`, `vcpus`, `vcpuOptions`, `allowedVcpuCounts`), a list of sizes
 * (`sizes` or `options`: `[{"vcpu": 4}, {"vcpuCount": 16}]`), or a range (`vcpu.min..max`, whose
 * powers of two are taken: the spec's rule for vcpuCount), as JSON integers or decimal strings. Only counts the spec allows (powers of
 * two, at least 2) are kept. Undefined when the entry states none: a count is never guessed, so
 * a body built from it holds only what the target itself offers.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
/** A count as a catalog states it: a JSON integer, or a decimal string of one (catalog records' types are not shown). */
export const countOf = (v: unknown): number | undefined =>
  Number.isSafeInteger(v) ? (v as number) : typeof v === "string" && /^\d{1,9}$/.test(v.trim()) ? Number(v.trim()) : undefined;
const valid = (n: unknown): n is number => Number.isSafeInteger(n) && (n as number) >= 2 && ((n as number) & ((n as number) - 1)) === 0;
const LIST_FIELDS = ["vcpuCounts", "vcpus", "vcpuOptions", "allowedVcpuCounts", "vcpuCountOptions"] as const;
const SIZE_FIELDS = ["sizes", "options", "variants"] as const;
const SIZE_KEYS = ["vcpu", "vcpuCount", "vcpus", "cpus"] as const;

export function flavorVcpuCounts(entry: Json): number[] | undefined {
  const vcpu = isObject(entry["vcpu"]) ? entry["vcpu"] : {};
  const lists = [vcpu["allowed"], ...LIST_FIELDS.map((f) => entry[f])];
  const listed = lists.find((l): l is unknown[] => Array.isArray(l) && l.length > 0 && l.every((n) => countOf(n) !== undefined));
  if (listed) return [...new Set(listed.map(countOf).filter(valid))].sort((a, b) => a - b);
  for (const f of SIZE_FIELDS) {
    const sizes = entry[f];
    if (!Array.isArray(sizes)) continue;
    const counts = sizes.filter(isObject).map((s) => SIZE_KEYS.map((k) => countOf(s[k])).find((n) => n !== undefined));
    if (counts.length > 0 && counts.every((n) => n !== undefined)) return [...new Set(counts.filter(valid))].sort((a, b) => a - b);
  }
  const [min, max] = [countOf(vcpu["min"]), countOf(vcpu["max"])];
  if (min !== undefined && max !== undefined) {
    const out: number[] = [];
    for (let n = 2; n <= Math.min(max, 1024); n *= 2) if (n >= min) out.push(n);
    return out;
  }
  return undefined;
}
