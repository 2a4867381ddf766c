/**
 * Free-form maps (a pod's `env`) take any key, including `__proto__`, `constructor` and
 * `prototype`. Those are refused as unknown properties: a consumer that merged such a map into
 * an object could have its prototype changed, and no environment variable needs those names.
 */
import type { RuleId } from "../rules/index.ts";
import { escapePointerSegment } from "../schemas/index.ts";
import { fieldLabel } from "./field-label.ts";
import { isPlainObject, PROTOTYPE_KEYS } from "./own.ts";
import type { Violation } from "./violation.ts";

export function prototypeKeyViolations(map: unknown, pointer: string, ruleId: RuleId): Violation[] {
  if (!isPlainObject(map)) return [];
  return Object.keys(map)
    .filter((key) => PROTOTYPE_KEYS.has(key))
    .map((key) => ({
      ruleId,
      path: `${pointer}/${escapePointerSegment(key)}`,
      message: `${fieldLabel(pointer)} does not accept the key ${JSON.stringify(key)}, which could alter object prototypes; rename or remove it.`,
    }));
}
