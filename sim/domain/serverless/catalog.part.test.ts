import t from "tap";
import { Engine, seconds } from "../../core/index.ts";
import { loadCatalog } from "../../catalog/index.ts";
import { KeyDirectory } from "../accounts/index.ts";
import { RateLimiter, formatRateLimitHeaders } from "../ratelimit/index.ts";
import { Serverless } from "./serverless.ts";
import { TestPool } from "./test-pool.ts";

// The subsystems take the validated catalog as it is: this is how the lead composes them.
t.test("serverless, rate limits and keys built from the bundled catalog", async (t) => {
  const catalog = loadCatalog();
  const engine = new Engine({ seed: 11 });
  const gpus: Record<string, number> = {};
  for (const e of catalog.endpoints) for (const g of e.gpuTypeIds) gpus[g] = 16;
  const model = new Serverless(engine, catalog, engine.rng.fork("serverless"), new TestPool(gpus));
  const keys = new KeyDirectory(catalog.accounts);
  const limits = new RateLimiter(catalog.accounts);
  const account = catalog.accounts.find((a) => a.rateLimits !== null && a.keys.some((k) => k.access === "full"));
  if (account === undefined) throw new Error("the catalog needs a limited account with a full key");
  const auth = keys.authenticate(`Bearer ${account.keys.find((k) => k.access === "full")?.key}`);
  t.match(auth, { ok: true, accountId: account.id, access: "full" });
  const decision = limits.check(account.id, engine.now);
  t.ok(decision.allowed);
  t.match(formatRateLimitHeaders(decision)?.RateLimit, /^"minute";r=\d+;t=60, "hour";r=\d+;t=3600, "day";r=\d+;t=86400$/);
  const conformance = catalog.endpoints.find((e) => e.handler === "conformance" && e.accountId === null);
  if (conformance === undefined) throw new Error("the catalog needs the shared conformance endpoint");
  const r = model.submit({ endpointId: conformance.id, accountId: account.id, input: { op: "sleep", ms: 250 } });
  if (!r.ok) throw new Error(r.message);
  engine.runFor(seconds(120));
  const s = model.status(conformance.id, account.id, r.jobId);
  t.match(s.ok && s.job, { status: "COMPLETED", output: { slept_ms: 250 }, executionTime: 250 });
  for (const e of catalog.endpoints) t.ok(model.health(e.slug ?? e.id, e.accountId ?? account.id).ok, `health of ${e.id}`);
});
