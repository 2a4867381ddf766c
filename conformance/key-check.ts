/**
 * Before any rule: one harmless authenticated read per key (GET the job endpoint's health, a
 * path the spec fixes), so a refused key is told as such rather than as thirty rule failures.
 * The full-access key refused (401 or 403) stops the run with exit 2, naming the flag, the
 * request and the answer. A read-only key refused (401 or 403: such a key may read) or a second
 * account's key refused (401 only: its 403 or 404 on another account's endpoint is isolation)
 * leaves that key's rules skipped, saying so. The same read tells whether the job endpoint
 * exists: a 404 that a made-up sibling path answers alike means it does not, and a run whose
 * rules need it stops with exit 2 (a missing endpoint is configuration, not a regression).
 */
import type { Client, ClientResponse } from "./client.ts";
import { ConformConfigError, TargetError } from "./errors.ts";
import { KEY_FLAG, KEY_ROLES, type KeyRole, type Keys } from "./keys.ts";
import { routeServed, routeSilent } from "./route-evidence.ts";

export interface KeyCheckInput {
  readonly client: Client;
  readonly serverless: string;
  readonly endpoint: string;
  readonly keys: Keys;
  readonly timeoutMs: number;
  /** Whether a selected rule needs the job endpoint (then a missing one stops the run). */
  readonly needsEndpoint: boolean;
}

export interface KeyCheck {
  /** Keys the target refused, with the request and its answer in words. */
  readonly refused: ReadonlyMap<KeyRole, string>;
  /** What each key's read answered, for the start of the run's log. */
  readonly lines: readonly string[];
  /** The full-access key's health answer (its JSON body), when 2xx: the workers it reports size the jobs lane (schedule.ts). */
  readonly health?: unknown;
  /** That answer's RateLimit-Policy, when it has one: the key's quotas size a real-time run (quota-sizing.ts). */
  readonly apiRateLimitPolicy?: string;
}

const BODY_SHOWN = 300;

function answer(res: ClientResponse): string {
  const text = res.text.replace(/\s+/g, " ").trim();
  return `${res.status}${text ? ` ${text.length > BODY_SHOWN ? `${text.slice(0, BODY_SHOWN)}... (${text.length} characters)` : text}` : ""}`;
}

function refusedBy(role: KeyRole, status: number): boolean {
  if (role === "other") return status === 401;
  return status === 401 || status === 403;
}

export async function checkKeys(input: KeyCheckInput): Promise<KeyCheck> {
  const url = `${input.serverless}/v2/${encodeURIComponent(input.endpoint)}/health`;
  const refused = new Map<KeyRole, string>();
  const lines: string[] = [];
  let health: unknown;
  let apiRateLimitPolicy: string | undefined;
  for (const role of KEY_ROLES) {
    if (!input.keys[role]) continue;
    let res: ClientResponse;
    try {
      res = await input.client.request({ method: "GET", url, auth: { key: role }, timeoutMs: Math.min(input.timeoutMs, 30_000) });
    } catch (err) {
      if (err instanceof TargetError) throw new ConformConfigError("CPSIM_ERR_TARGET_UNREACHABLE", `the first read with ${KEY_FLAG[role]} (GET ${url}) got no answer: ${err.message}`);
      throw err;
    }
    let said = `GET ${url} answered ${answer(res)}`;
    if (refusedBy(role, res.status)) {
      // The job endpoints may take the key alone in Authorization too (Authentication rule 1): a
      // target that refuses only the Bearer form breaks auth.bearer-header, and the key is valid.
      const raw = await input.client.request({ method: "GET", url, auth: { key: role, via: "raw" }, timeoutMs: Math.min(input.timeoutMs, 30_000) }).catch(() => undefined);
      if (raw && !refusedBy(role, raw.status)) res = raw;
      else if (raw) said += `, and ${answer(raw)} with the key alone in Authorization`;
    }
    lines.push(`${KEY_FLAG[role]}: ${said}`);
    if (role === "api" && res.status >= 200 && res.status < 300) {
      health = res.json;
      apiRateLimitPolicy = res.headers["ratelimit-policy"];
    }
    if (refusedBy(role, res.status)) {
      if (role === "api") {
        throw new ConformConfigError(
          "CPSIM_ERR_KEY_REFUSED",
          `the target refused the full-access key given by ${KEY_FLAG.api} (or $CPSIM_API_KEY): ${said}. No rule was run: check the key (a wrong, rotated or expired secret, one without access to --endpoint ${input.endpoint})`,
        );
      }
      refused.set(role, said);
      continue;
    }
    if (role === "api" && routeSilent(res.status) && input.needsEndpoint) {
      const verdict = await routeServed(input.client, res, { key: "api" });
      // A served route's 404 on health is the platform's own "no such endpoint"; either way the
      // endpoint the job rules need is missing.
      throw new ConformConfigError(
        "CPSIM_ERR_NO_ENDPOINT",
        `the job endpoint "${input.endpoint}" is missing: ${verdict.served ? said : verdict.why}. The job rules need an endpoint running the conformance handler: deploy it and pass --endpoint ID (and --serverless-url URL where job endpoints have their own base URL), or leave the job rules out with --skip 'jobs.*'`,
      );
    }
  }
  return { refused, lines, ...(health !== undefined ? { health } : {}), ...(apiRateLimitPolicy !== undefined ? { apiRateLimitPolicy } : {}) };
}
