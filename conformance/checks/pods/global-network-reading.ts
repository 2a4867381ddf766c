/**
 * What a data-center catalog entry's `globalNetwork` says about eligibility. The spec states only
 * that "eligible data centers carry a `globalNetwork` field in the data center catalog": not its
 * type. So a boolean is read as itself, and any other value by what it plainly says: absent,
 * null, false, 0, an empty list or a word of refusal ("no", "disabled", "unsupported") is not
 * eligible; true, a word of assent, a network range or name, a non-empty list, or an object
 * whose own flag (`enabled`, `supported`, `available`, `eligible`, `active`) says true is
 * eligible; an object that says neither (`{}`) is unknown, and a rule never judges a data center
 * whose eligibility is unknown. The boolean type is choices.md's, judged only by the strict
 * profile's catalog shape rule.
 */

export type GlobalNetworkReading = "eligible" | "ineligible" | "unknown";

const NO = /^\s*(false|no|none|off|disabled?|unsupported|unavailable|ineligible|not[ _-]?(supported|available|eligible)|n\/a|0|)\s*$/i;
const YES = /^\s*(true|yes|on|enabled?|supported|available|eligible|active)\s*$/i;
const FLAGS = ["enabled", "supported", "available", "eligible", "active", "status"] as const;

export function readGlobalNetwork(value: unknown): GlobalNetworkReading {
  if (value === undefined || value === null || value === false) return "ineligible";
  if (value === true) return "eligible";
  if (typeof value === "number") return value === 0 ? "ineligible" : "eligible";
  if (typeof value === "string") return NO.test(value) ? "ineligible" : "eligible";
  if (Array.isArray(value)) return value.length === 0 ? "ineligible" : "eligible";
  if (typeof value === "object") {
    const entry = value as Record<string, unknown>;
    for (const flag of FLAGS) {
      const v = entry[flag];
      if (typeof v === "boolean") return v ? "eligible" : "ineligible";
      if (typeof v === "string") return NO.test(v) ? "ineligible" : YES.test(v) ? "eligible" : "unknown";
    }
    return "unknown";
  }
  return "unknown";
}
