/**
 * For each defect cpsim documents (sim/defects), whether a plain client's traffic through the proxy
 * shows it and, where it does, that the proxy catches it (on the target's side, as the defect's own
 * rule): fetch on pods through their life and on the catalogs, the official JS SDK and a script on
 * the job endpoints, GraphQL with the key in `api_key`, and a client that forgot its key once
 * (conformance/test-support/proxy/traffic.ts). The proxy runs with `--profile strict`, where every
 * rule `conform` has is judged (the emulator is strict's reference, so its clean traffic shows no
 * finding: clean-traffic.part.test.ts), and with `--sole-client`, which these clients are: the
 * emulator gets no job request but theirs, so others' jobs explain nothing. SHOWN_AND_CAUGHT, NOT_SHOWN and SHOWN_NOT_JUDGEABLE split
 * the catalog; a defect not caught says why (the traffic does not show it, or what judging it from
 * traffic would need). A defect newly caught, or one no longer caught, fails here:
 * the lists are the table docs/proxy.md cites.
 */
import t from "tap";
import { defects as DEFECTS } from "../../sim/defects/index.ts";
import { emulatorBehindProxy } from "../test-support/proxy/setup.ts";
import { graphqlSession, jobScriptSession, jobSession, keylessSession, restSession, SESSIONS } from "../test-support/proxy/traffic.ts";

export const SHOWN_AND_CAUGHT: readonly string[] = [
  // Pods: created, read while provisioning, running, renamed, stopped, deleted; a GPU pod with the defaults, one with global networking.
  "create-answers-200", "create-starts-running", "create-omits-template", "create-defaults-community", "create-defaults-two-gpus",
  "create-reports-global-networking", "runtime-kept-when-exited", "runtime-missing-when-running", "cost-when-exited", "status-stopped", "actions-pause",
  "actions-no-terminate-when-exited", "cpu-pod-carries-gpu", "ip-without-global-networking", "internal-dns-host-name",
  "terminated-comes-back", "terminate-answers-200", "unknown-pod-403", "global-networking-without-ip", "list-bare-array", "delete-answers-body",
  // Jobs: the SDK's every function, a failed job retried, cancels of a queued and of a running job read back, a runsync whose wait runs out.
  "run-answers-queued", "runsync-returns-early", "runsync-elapsed-408", "status-sync-no-id", "status-field-renamed", "failed-without-error",
  "no-execution-time", "completed-without-output", "no-worker-id", "no-input-echo", "cancel-lies", "cancel-skips-queued", "cancel-skips-running",
  "cancel-answers-cancelling", "retry-new-id", "retry-answers-retrying", "health-counters-strings", "stream-chunks-key", "empty-body-400",
  "health-under-v1",
  // Jobs, judged over the traffic: a job read IN_QUEUE reports at least that wait; and, as the sole client, a CANCELLED no cancel asked for, counts above the jobs that may be queued.
  "delay-time-seconds", "failed-reads-cancelled", "health-queue-off-by-one", "purge-count-off-by-one",
  // Errors, keys, rate limits, catalogs.
  "not-found-plain-json", "success-text-plain", "jobs-without-key", "jobs-refuse-bearer", "jobs-refuse-bare-key", "ratelimit-only-on-429",
  "ratelimit-without-reset", "ratelimit-hour-3599", "ratelimit-never-moves", "ratelimit-single-quotes", "gpus-bare-array", "cpus-bare-array",
  "datacenters-bare-array", "datacenters-without-global-network", "invalid-key-403", "cpu-memory-off-by-one",
  // GraphQL: pods, one pod, the GPU types, a deploy, a stop, a resume, a call without a key.
  "graphql-without-key", "graphql-result-envelope", "graphql-errors-without-code", "deploy-without-host", "deploy-ignores-name", "resume-without-image",
  "resume-answers-exited", "stop-without-id", "stop-answers-running", "myself-pods-without-runtime", "pod-query-without-name",
  "gpu-types-without-display-name", "lowest-price-without-counts", "pod-machine-id-number", "env-colon-pairs", "gpu-memory-string",
];

/** Why the traffic does not show a defect. */
const REFUSED = "shows only on a request the spec refuses, which a well-behaved client does not send (`cpsim conform` sends it)";
const MOUNTS = "needs a pod with a persistent or network mount (or a network volume), which this traffic does not make";
const STATE = "needs a situation this traffic does not make";
const TIME = "shows only after a retention period or a TTL runs out, longer than a client session";
const QUOTA = "shows only on a 429, when a rate-limit window is spent; this traffic stays under the limits";
const OTHERS = "needs a second account or key, which a client of one key does not have";

export const NOT_SHOWN: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      "create-keeps-unknown-property", "create-defaults-missing-name", "create-accepts-empty-name", "create-defaults-missing-image", "create-clamps-disk",
      "create-drops-bad-ports", "create-stringifies-env", "create-ignores-bad-cloud", "create-gpu-count-zero", "create-vcpu-one", "create-first-network-mount",
      "create-small-persistent", "create-gpu-wins-over-cpu", "create-cpu-drops-persistent", "create-both-mounts", "create-empty-network-array",
      "create-vcpu-rounds-down", "create-unknown-dc-ignored", "create-drops-mistyped-fields", "create-default-gpu-type", "create-default-cpu-flavor",
      "create-empty-cpu-flavor", "create-default-vcpu", "create-fills-mount-entry", "create-snaps-vcpu", "create-unknown-gpu-replaced",
      "create-unknown-cpu-replaced", "create-unknown-volume-dropped", "create-unknown-registry-dropped", "create-volume-dc-ignored",
      "create-cpu-global-networking", "create-global-networking-anywhere", "update-empty-network-array", "update-partial-mount", "update-keeps-unknown-property",
      "update-clamps-disk", "update-cpu-persistent", "update-empty-name", "update-drops-bad-ports", "update-stringifies-env", "update-small-persistent",
      "update-first-network-mount", "update-both-mounts", "update-drops-mistyped-fields", "update-cpu-global-networking", "action-extra-keys-ignored",
      "action-defaults-to-stop", "unknown-action-stops", "action-body-not-object-ok", "submit-without-input", "submit-keeps-unknown-key", "submit-bad-webhook",
      "submit-ttl-unchecked", "submit-timeout-unchecked", "submit-policy-not-object", "runsync-wait-unchecked", "status-ttl-unchecked", "run-limit-20mb",
      "runsync-limit-40mb", "bad-request-plain-json", "problem-status-400", "problem-title-generic", "validation-without-errors", "malformed-key-last-word",
      "deploy-refuses-docker-args",
    ].map((name) => [name, REFUSED]),
  ),
  ...Object.fromEntries(["update-clears-mount-when-omitted", "update-ignores-kind-change", "update-ignores-volume-change", "network-pod-wrong-data-center"].map((name) => [name, MOUNTS])),
  ...Object.fromEntries(["results-never-expire", "run-result-10-minutes", "runsync-result-kept-30-minutes", "status-ttl-ignored", "runsync-result-kept-for-wait", "policy-ttl-ignored", "retry-expired-ok"].map((name) => [name, TIME])),
  ...Object.fromEntries(["ratelimit-not-enforced", "no-retry-after", "429-vague-detail"].map((name) => [name, QUOTA])),
  ...Object.fromEntries(["ratelimit-shared-by-accounts", "jobs-leak-across-accounts", "read-only-runs-jobs"].map((name) => [name, OTHERS])),
  "start-running-pod-ok": `${STATE}: an action the pod's status does not allow (start of a running pod)`,
  "locked-pod-stops-ok": `${STATE}: a locked pod`,
  "ignores-preferred-data-centers": `${STATE}: a create whose dataCenterIds alone place the pod (the traffic's one create naming them also asks for global networking, which confines the pod to those data centers anyway)`,
  "host-taken-start-ok": `${STATE}: a stopped pod whose host GPUs were taken meanwhile`,
  "conflict-error-field": `${STATE}: a 409 (an action its pod's status refuses)`,
  "unknown-job-queued": `${STATE}: a status read of a job id the target never gave`,
  "execution-timeout-ignored": `${STATE}: a job submitted with policy.executionTimeout shorter than its run`,
  "purge-cancels-running": `${STATE}: a purge-queue while a job of the endpoint runs`,
  "retry-completed-ok": `${STATE}: a retry of a job that did not fail`,
  "retry-keeps-output": `${STATE}: a retried job read before it ends (the failing handler fails at once, so the retried job is final when read)`,
  "retry-drops-input": `${STATE}: a retried job read while it runs (the failing handler fails at once)`,
  "health-for-any-endpoint": `${STATE}: a health read of a REST path segment as an endpoint id`,
  "stream-one-big-chunk": `${STATE}: a streaming job whose output is over 1 MB`,
  "stream-reversed": `${STATE}: stream chunks that differ (the handler's chunks here are alike, so their order does not show)`,
  "public-model-without-health": `${STATE}: a job on a public model endpoint`,
  "image-output-without-url": `${STATE}: a job on a public image model endpoint`,
  "graphql-refuses-bearer": `${STATE}: a GraphQL call with the key as Bearer (the Python client's quirk, official-client-quirks.part.test.ts)`,
  "deploy-ignores-cuda": `${STATE}: a deploy with allowedCudaVersions`,
  "graphql-drops-last-status-change": `${STATE}: a GraphQL query selecting lastStatusChange`,
  "uptime-string": `${STATE}: a GraphQL pod read while the pod runs (its runtime is null before)`,
  "stock-status-out": `${STATE}: a GPU type whose stock is Low or None (the emulator's seed 7 has none at the time)`,
};

/**
 * Shown by the traffic, but beyond what traffic can tell from a correct answer: each with what the
 * proxy would need. `cpsim conform` judges them with requests of its own.
 */
export const SHOWN_NOT_JUDGEABLE: Readonly<Record<string, string>> = {
  "stream-only-at-end":
    "a stream that yields nothing until the job is final: every read while IN_PROGRESS answers an empty stream, which a correct target also answers while its handler has yielded nothing yet; judging it needs when the handler yielded each output (the conformance handler's `ms` between outputs gives it, so `cpsim conform` judges it with a job of its own), which the traffic does not show",
};

// One emulator and proxy per defect, six at a time: the sessions mostly wait (a pod's provisioning, a job's cold start).
t.setTimeout(3_600_000);
const PARALLEL = 6;

/** The traffic of the defect's area: a plain client's, as it uses that part of the API. */
function sessionsFor(area: string) {
  if (area === "graphql") return [graphqlSession, keylessSession];
  if (area.startsWith("jobs")) return [jobSession, jobScriptSession];
  if (area === "auth") return SESSIONS;
  return [restSession];
}

t.test("every defect is shown and caught, not shown, or shown beyond what traffic can tell, with the reason", async (t) => {
  const names = DEFECTS.map((d) => d.name);
  const lists = (n: string) => [SHOWN_AND_CAUGHT.includes(n), Object.hasOwn(NOT_SHOWN, n), Object.hasOwn(SHOWN_NOT_JUDGEABLE, n)].filter(Boolean).length;
  t.same(names.filter((n) => lists(n) !== 1), [], "each defect in exactly one list");
  t.same([...SHOWN_AND_CAUGHT, ...Object.keys(NOT_SHOWN), ...Object.keys(SHOWN_NOT_JUDGEABLE)].filter((n) => !names.includes(n)), [], "no list names a defect cpsim does not have");
});

t.test("each defect under a plain client's traffic: shown ⇒ caught", async (t) => {
  const hits = new Map<string, readonly string[]>();
  const run = async (d: (typeof DEFECTS)[number]) => {
    const s = await emulatorBehindProxy(t, { defects: [d.name], proxy: { profile: "strict", soleClient: true } });
    // A client that fails on the defect (the SDK throws at a 401) has still sent its traffic.
    for (const session of sessionsFor(d.area)) await session(s).catch(() => {});
    const { lateFindings } = await s.proxy.stop();
    await s.emulator.close();
    hits.set(d.name, [...new Set([...s.findings, ...lateFindings].filter((f) => f.side === "target").map((f) => f.rule.id))]);
  };
  let next = 0;
  const worker = async () => {
    while (next < DEFECTS.length) await run(DEFECTS[next++]!);
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  const outcome = (d: (typeof DEFECTS)[number]) => (hits.get(d.name)?.includes(d.rule) ?? false) === SHOWN_AND_CAUGHT.includes(d.name);
  // Six at once on a busy machine, a client's read can come after the moment it was timed for: a defect
  // whose outcome differs from its list runs again, alone; a real change of outcome differs twice.
  const again = DEFECTS.filter((d) => !outcome(d));
  for (const d of again) await run(d);
  if (again.length) t.comment(`run again alone: ${again.map((d) => `${d.name} (${outcome(d) ? "as listed the second time" : "differs again"})`).join(", ")}`);
  for (const d of DEFECTS) {
    const caught = hits.get(d.name)?.includes(d.rule) ?? false;
    const shown = SHOWN_AND_CAUGHT.includes(d.name);
    const why = shown ? "shown, so caught" : Object.hasOwn(NOT_SHOWN, d.name) ? `not shown: ${NOT_SHOWN[d.name]}` : `not judgeable from traffic: ${SHOWN_NOT_JUDGEABLE[d.name]}`;
    t.equal(caught, shown, `--defect ${d.name} (${d.rule}): ${why}; target findings: ${hits.get(d.name)?.join(", ") || "none"}`);
  }
});
