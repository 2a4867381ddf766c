/**
 * `cpsim conform --discover`: reads the target's facts the way a run does (profile, OpenAPI
 * document, harmless probes) and prints them as a ready --target-profile file, without judging
 * any rule. Against the embedded emulator it shows what a conforming target looks like.
 */
import { Client } from "./client.ts";
import type { ConformDeps } from "./conform.ts";
import { ConformConfigError, TargetError } from "./errors.ts";
import { resolveOptions, type ConformOptions } from "./options.ts";
import { FACT_MEANING, discoverTargetFacts, factsAsProfile, loadTargetProfile, missingFacts, type MissingFact, type TargetFacts } from "./target-facts/index.ts";

export interface DiscoverResult {
  readonly facts: TargetFacts;
  /** The profile file's text, as printed. */
  readonly profile: string;
  /** What discovery could not find, each with the profile key that states it. */
  readonly missing: readonly MissingFact[];
}

export async function discoverTarget(input: Partial<ConformOptions>, deps: ConformDeps = {}): Promise<DiscoverResult> {
  const resolved = resolveOptions(input, deps.cwd);
  const profile = resolved.targetProfile ? await loadTargetProfile(resolved.targetProfile) : undefined;
  const embedded = resolved.target ? undefined : await deps.startEmbedded?.(resolved);
  if (!resolved.target && !embedded) {
    throw new ConformConfigError("CPSIM_ERR_NO_TARGET", "no --target given, and this build has no embedded emulator to read instead; pass --target URL");
  }
  const rest = embedded?.rest ?? (resolved.target as string);
  const serverless = embedded ? (embedded.serverless ?? embedded.rest) : (resolved.serverlessUrl ?? rest);
  const keys = { ...embedded?.keys, ...resolved.keys };
  const client = Client.create({ ...deps.client, timeoutMs: resolved.timeoutMs, keys });
  try {
    try {
      await client.request({ method: "GET", url: `${rest}/`, timeoutMs: Math.min(resolved.timeoutMs, 10_000) });
    } catch (err) {
      if (err instanceof TargetError) throw new ConformConfigError("CPSIM_ERR_TARGET_UNREACHABLE", `--target ${rest} is unreachable: ${err.message}`);
      throw err;
    }
    if (!keys.api) deps.io?.stderr("cpsim conform --discover: without --api-key only the OpenAPI document is read; the probes need a key\n");
    let headed = false;
    const facts = await discoverTargetFacts({
      client,
      rest,
      serverless,
      ...(profile ? { profile } : {}),
      hasApiKey: keys.api !== undefined,
      timeoutMs: resolved.timeoutMs,
      log: (m) => {
        // One heading over the probes' findings: a line alone on stderr says nothing of where it comes from.
        if (!headed) deps.io?.stderr("cpsim conform --discover: what the probes found (the profile printed on stdout states it):\n");
        headed = true;
        deps.io?.stderr(`  ${m}\n`);
      },
    });
    const text = factsAsProfile(facts);
    deps.io?.stdout(text);
    const missing = missingFacts(facts);
    if (missing.length > 0) {
      const lines = missing.map((m) => `  ${m.key}: ${FACT_MEANING[m.key]}: ${m.why}\n    state it as ${m.example}\n`);
      deps.io?.stderr(`cpsim conform --discover: not found (fill these keys in the profile, or the rules that need them are skipped):\n${lines.join("")}`);
    }
    return { facts, profile: text, missing };
  } finally {
    await client.close();
    await embedded?.close();
  }
}
