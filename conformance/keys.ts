/**
 * The three keys a run may hold and how they appear outside memory. A key is never written
 * into a recording, report or script: wherever one would appear, the recording holds a
 * `${CPSIM_..._KEY}` placeholder instead, which the curl script reads from its environment.
 */

export type KeyRole = "api" | "restricted" | "other";

export const KEY_ROLES: readonly KeyRole[] = ["api", "restricted", "other"];

export const KEY_ENV: Readonly<Record<KeyRole, string>> = {
  api: "CPSIM_API_KEY",
  restricted: "CPSIM_RESTRICTED_API_KEY",
  other: "CPSIM_OTHER_API_KEY",
};

export const KEY_FLAG: Readonly<Record<KeyRole, string>> = {
  api: "--api-key",
  restricted: "--restricted-api-key",
  other: "--other-api-key",
};

export type Keys = Readonly<Partial<Record<KeyRole, string>>>;

/** What stands for a key in recordings: a shell variable reference the curl script expands. */
export function keyPlaceholder(role: KeyRole): string {
  return `\${${KEY_ENV[role]}}`;
}

/** A secret and the environment variable that stands for it. */
export interface Redaction {
  readonly value: string;
  readonly env: string;
}

/** The redactions for the keys given; longest first, so a key that contains another wins. */
export function keyRedactions(keys: Keys): Redaction[] {
  return KEY_ROLES.filter((r) => keys[r])
    .map((r) => ({ value: keys[r] as string, env: KEY_ENV[r] }))
    .sort((a, b) => b.value.length - a.value.length);
}

/** Replaces every occurrence of each secret by its placeholder. */
export function redactText(text: string, redactions: readonly Redaction[]): string {
  let out = text;
  for (const r of redactions) if (r.value) out = out.split(r.value).join(`\${${r.env}}`);
  return out;
}
