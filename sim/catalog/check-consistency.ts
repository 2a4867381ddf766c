/**
 * Rules within one record that a schema cannot say: prices present exactly for the clouds a
 * GPU type is offered in, quotas that grow with the window, worker bounds in order, and the
 * names an endpoint may take in the shared URL space.
 */
import type { Catalog } from "./catalog.ts";
import { pointer, show, type CatalogIssue } from "./catalog-error.ts";
import { RESERVED_ENDPOINT_IDS } from "./reserved-endpoint-ids.ts";

const SECURE_PRICES = ["securePrice", "secureSpotPrice", "oneWeekPrice", "oneMonthPrice", "threeMonthPrice"] as const;
const COMMUNITY_PRICES = ["communityPrice", "communitySpotPrice"] as const;

export function checkConsistency(catalog: Catalog): CatalogIssue[] {
  const issues: CatalogIssue[] = [];
  const issue = (file: string, at: string, message: string): void => {
    issues.push({ file, pointer: at, message });
  };

  catalog.gpuTypes.forEach((type, i) => {
    const at = (field: string): string => pointer("gpuTypes", i, field);
    if (!type.secureCloud && !type.communityCloud) {
      issue("gpu-types.json", at("secureCloud"), "must be true when communityCloud is false (a GPU type is offered in at least one cloud), got false");
    }
    for (const [offered, flag, fields] of [
      [type.secureCloud, "secureCloud", SECURE_PRICES],
      [type.communityCloud, "communityCloud", COMMUNITY_PRICES],
    ] as const) {
      if (offered && type[fields[0]] === null) {
        issue("gpu-types.json", at(fields[0]), `must be a price when ${flag} is true, got null`);
      }
      if (!offered) {
        for (const field of fields) {
          if (type[field] !== null) issue("gpu-types.json", at(field), `must be null when ${flag} is false, got ${show(type[field])}`);
        }
      }
    }
    for (const [spot, onDemand] of [
      ["secureSpotPrice", "securePrice"],
      ["communitySpotPrice", "communityPrice"],
    ] as const) {
      const s = type[spot];
      const d = type[onDemand];
      if (s !== null && d !== null && s > d) issue("gpu-types.json", at(spot), `must be at most ${onDemand} (${d}), got ${s}`);
    }
  });

  catalog.accounts.forEach((account, i) => {
    const limits = account.rateLimits;
    if (limits === null) {
      account.keys.forEach((key, j) => {
        if (key.access !== "exempt") {
          issue("accounts.json", pointer("accounts", i, "keys", j, "access"), `must be "exempt" on an account without rateLimits, got ${show(key.access)}`);
        }
      });
      return;
    }
    if (limits.hour < limits.minute) issue("accounts.json", pointer("accounts", i, "rateLimits", "hour"), `must be at least the minute quota (${limits.minute}), got ${limits.hour}`);
    if (limits.day < limits.hour) issue("accounts.json", pointer("accounts", i, "rateLimits", "day"), `must be at least the hour quota (${limits.hour}), got ${limits.day}`);
  });

  catalog.endpoints.forEach((endpoint, i) => {
    const at = (field: string): string => pointer("endpoints", i, field);
    const reserved = `must not be a reserved path segment (${RESERVED_ENDPOINT_IDS.join(", ")})`;
    if (RESERVED_ENDPOINT_IDS.includes(endpoint.id)) issue("endpoints.json", at("id"), `${reserved}, got ${show(endpoint.id)}`);
    if (endpoint.slug !== null && RESERVED_ENDPOINT_IDS.includes(endpoint.slug)) {
      issue("endpoints.json", at("slug"), `${reserved}, got ${show(endpoint.slug)}`);
    }
    if (endpoint.workersMin > endpoint.workersMax) {
      issue("endpoints.json", at("workersMin"), `must be at most workersMax (${endpoint.workersMax}), got ${endpoint.workersMin}`);
    }
    if (endpoint.public && endpoint.slug === null) issue("endpoints.json", at("slug"), "must be a model slug on a public endpoint, got null");
    if (!endpoint.public && endpoint.slug !== null) issue("endpoints.json", at("slug"), `must be null on a private endpoint, got ${show(endpoint.slug)}`);
    if (endpoint.public && endpoint.accountId !== null) {
      issue("endpoints.json", at("accountId"), `must be null on a public endpoint (public models are shared), got ${show(endpoint.accountId)}`);
    }
  });

  return issues;
}
