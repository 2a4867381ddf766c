/**
 * Evaluates a scenario's checks on one response. Checks are data (so they can be exported to
 * k6 as the same `check` calls); this is their meaning here. The body is parsed at most once per
 * response, and only when a check needs it.
 */
import type { CheckSpec } from "./scenario.ts";

export interface CheckedResponse {
  readonly status: number;
  /** Lower-case header names. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  /** Name of the scenario request this answers. */
  readonly request?: string;
}

function at(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function header(r: CheckedResponse, name: string): string | undefined {
  const v = r.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function applies(check: CheckSpec, status: number, request?: string): boolean {
  return (check.when === undefined || check.when.status.includes(status)) && (check.request === undefined || check.request === request);
}

/** Returns, per check, true (passed), false (failed) or undefined (does not apply). */
export function evaluateChecks(checks: readonly CheckSpec[], r: CheckedResponse, out: (boolean | undefined)[]): void {
  let parsed: unknown;
  let parsedOk: boolean | undefined;
  const json = (): unknown => {
    if (parsedOk === undefined) {
      try {
        parsed = JSON.parse(r.body);
        parsedOk = true;
      } catch {
        parsedOk = false;
      }
    }
    return parsedOk ? parsed : undefined;
  };
  for (let i = 0; i < checks.length; i++) {
    const c = checks[i];
    if (!applies(c, r.status, r.request)) {
      out[i] = undefined;
      continue;
    }
    switch (c.kind) {
      case "status":
        out[i] = (c.in === undefined || c.in.includes(r.status)) && (c.min === undefined || r.status >= c.min) && (c.max === undefined || r.status <= c.max);
        break;
      case "json-field": {
        const v = at(json(), c.path);
        out[i] = (typeof v === "string" && v.length > 0) || typeof v === "number";
        break;
      }
      case "json-array": {
        const v = at(json(), c.path);
        out[i] = Array.isArray(v) && v.length >= c.minItems;
        break;
      }
      case "stream-chunks": {
        const body = json();
        const chunks = Array.isArray(body) ? body : at(body, "stream");
        out[i] =
          Array.isArray(chunks) &&
          chunks.every((ch) => {
            const o = (ch as { output?: unknown } | null)?.output;
            const text = typeof o === "string" ? o : JSON.stringify(o ?? null);
            return Buffer.byteLength(text) <= c.maxBytes;
          });
        break;
      }
      case "header": {
        const v = header(r, c.header);
        out[i] = v !== undefined && (!c.integer || /^\d+$/.test(v.trim()));
        break;
      }
    }
  }
}
