/**
 * What the rule breakers share. A breaker turns a valid request into one that breaks one rule
 * and, as far as it can, no other, so the rejection must name that rule and answer its status.
 * A breaker may reshape the rest of the request to make its rule breakable (a vCPU rule needs a
 * CPU pod, so a GPU body becomes a CPU body first), and answers undefined when the catalog
 * offers nothing to break the rule with. The choice among ways to break a rule depends only on
 * the request, so a failing case reproduces from its seed.
 */

/** Breakers edit a deep copy of plain JSON, whose shape they change on purpose. */
export type Draft = Record<string, any>;

export const copy = (value: unknown): Draft => JSON.parse(JSON.stringify(value)) as Draft;

/** A stable small number from the request, to vary how a rule is broken. */
export const variant = (value: unknown, n: number): number => (JSON.stringify(value) ?? "").length % n;

export const MOUNT_PATH = "/workspace";
