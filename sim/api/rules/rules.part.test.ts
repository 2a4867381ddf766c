import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import t from "tap";
import { packageRoot } from "../../package-root.ts";
import { acceptedStatuses, statusAccepted } from "./accepted-statuses.ts";
import { defineRules, RuleCatalogError } from "./define-rules.ts";
import type { Rule } from "./rule.ts";
import { isRuleId, ruleById, rules } from "./rules.ts";

// The specification documents are not part of the repository: CPSIM_SPEC_DIR names the directory
// holding compute-platform-api.md and choices.md (default ../shared/spec beside the repository, as
// on the team's machines). Without it, the quote checks are reported as skipped, never failed.
const specDir = resolve(packageRoot, process.env.CPSIM_SPEC_DIR ?? "../shared/spec");
const specFiles = ["compute-platform-api.md", "choices.md"];
const missingSpec = specFiles.find((f) => !existsSync(resolve(specDir, f)));
const skipSpec =
  missingSpec === undefined ? false : `the specification is not available (${resolve(specDir, missingSpec)} not found; set CPSIM_SPEC_DIR to its directory)`;

/** The reading notes' replacements: "the service" stood for "request" in these places. */
const READING_NOTES: ReadonlyArray<readonly [string, string]> = [
  ["the service body", "request body"],
  ["valid the service", "valid request"],
  ["400 | Bad the service", "400 | Bad Request"],
  ["Malformed the service", "Malformed request"],
  ["how long the the service waits", "how long the request waits"],
  ["a placeholder the service id", "a placeholder request id"],
  ["as a the service option", "as a request option"],
];

/**
 * Text as a reader sees it: runs of white space (line wraps) as one space, and markdown's
 * escaped table pipes (`\|`) as plain pipes.
 */
function flatten(text: string): string {
  return text.replace(/\\\|/g, "|").replace(/\s+/g, " ");
}

function readSpec(name: string): { raw: string; read: string; headings: Set<string> } {
  const raw = readFileSync(resolve(specDir, name), "utf8");
  let read = raw;
  for (const [from, to] of READING_NOTES) read = read.split(from).join(to);
  const headings = new Set(
    raw
      .split("\n")
      .filter((line) => line.startsWith("#"))
      .map((line) => line.replace(/^#+\s*/, "").trim()),
  );
  return { raw: flatten(raw), read: flatten(read), headings };
}

const sources = skipSpec === false ? { spec: readSpec("compute-platform-api.md"), choices: readSpec("choices.md") } : undefined;

t.test("every rule quotes its sentence verbatim from the file it names", { skip: skipSpec }, async (t) => {
  if (sources === undefined) return;
  for (const rule of rules) {
    const file = sources[rule.source];
    const quote = flatten(rule.spec);
    t.ok(file.read.includes(quote) || file.raw.includes(quote), `${rule.id}: "${rule.spec}" occurs in ${rule.source}`);
  }
});

t.test("every rule's section is a heading of its file", { skip: skipSpec }, async (t) => {
  if (sources === undefined) return;
  for (const rule of rules) {
    const heading = rule.section.split(" › ")[0] ?? "";
    t.ok(sources[rule.source].headings.has(heading), `${rule.id}: section "${heading}" is a heading of ${rule.source}`);
  }
});

t.test("the ids the task names are all in the catalog", async (t) => {
  const named = [
    "pods.create.unknown-property", "pods.create.gpu-cpu-exclusive", "pods.create.vcpu-power-of-two", "pods.create.vcpu-minimum",
    "pods.create.persistent-on-cpu", "pods.create.mounts-exclusive", "pods.create.network-max-items", "pods.create.persistent-size-minimum",
    "pods.create.name-min-length", "pods.create.cpu-id-min-length", "pods.create.disk-minimum", "pods.create.gpu-count-minimum",
    "pods.create.port-format", "pods.create.default-cloud", "pods.create.default-gpu-count", "pods.create.status-provisioning",
    "pods.create.response-required-fields", "pods.update.mounts-omitted-unchanged", "pods.update.network-empty-array",
    "pods.update.mount-kind-fixed", "pods.update.volume-id-immutable", "pods.update.mount-partial-entry",
    "pods.runtime-null-unless-running", "pods.cost-zero-when-stopped", "pods.actions-match-status", "pods.gpu-xor-cpu",
    "pods.global-networking-shape", "pods.transition-legal", "errors.problem-json", "auth.missing-key", "auth.invalid-key",
    "auth.malformed-key", "auth.read-only-forbidden", "auth.account-isolation", "jobs.run.in-queue", "jobs.runsync.complete-result",
    "jobs.transition-legal", "jobs.delay-time", "jobs.execution-time", "jobs.worker-id", "jobs.input-echo", "jobs.cancel.queued",
    "jobs.cancel.running", "jobs.cancel.never-completes", "jobs.retry.only-failed", "jobs.retry.same-id", "jobs.retry.output-removed",
    "jobs.purge.queued-only", "jobs.purge.count", "jobs.health.counters", "jobs.stream.chunk-size", "jobs.stream.reassembly",
    "jobs.payload.run-limit", "jobs.payload.runsync-limit", "jobs.runsync.wait-range", "jobs.status.ttl", "jobs.retention",
    "jobs.public.image-output", "graphql.pod-stop.exited", "graphql.pod-resume.running", "graphql.env-key-value",
    "graphql.stock-status-enum", "graphql.auth-api-key", "ratelimit.headers-present", "ratelimit.headers-well-formed",
    "ratelimit.remaining-decreases", "ratelimit.policy-windows", "ratelimit.429-when-spent", "ratelimit.retry-after",
    "ratelimit.429-detail-names-window",
  ];
  for (const id of named) t.ok(isRuleId(id), id);
});

t.test("statuses agree with the spec where it mandates them", async (t) => {
  const expect: Record<string, number> = {
    "pods.create.mounts-exclusive": 400,
    "pods.create.mount-entry-incomplete": 422,
    "pods.update.network-empty-array": 400,
    "pods.update.mount-kind-fixed": 400,
    "pods.update.volume-id-immutable": 400,
    "pods.update.mount-partial-entry": 422,
    "auth.missing-key": 401,
    "auth.read-only-forbidden": 403,
    "ratelimit.429-when-spent": 429,
  };
  for (const [id, status] of Object.entries(expect)) {
    const rule = ruleById(id);
    t.equal(rule?.status, status, `${id} answers ${status}`);
    t.same(rule?.specStatuses, [status], `${id}: the spec mandates ${status}`);
  }
  for (const rule of rules) {
    if (rule.kind === "request" && rule.id.startsWith("pods.")) t.ok(rule.status !== undefined, `${rule.id} has an emulator status`);
  }
});

t.test("ruleById finds every rule and nothing else", async (t) => {
  for (const rule of rules) t.equal(ruleById(rule.id), rule);
  t.equal(ruleById("no.such-rule"), undefined);
  t.equal(isRuleId("no.such-rule"), false);
});

t.test("defineRules refuses duplicate and malformed ids and inconsistent statuses", async (t) => {
  const base: Rule = { id: "a.b", title: "t", spec: "s", section: "S", source: "spec", severity: "error", kind: "request" };
  t.throws(() => defineRules([base, { ...base }]), RuleCatalogError);
  t.throws(() => defineRules([base, { ...base }]), { message: /"a.b" is defined twice/ });
  t.throws(() => defineRules([{ ...base, id: "Nodots" }]), { message: /not of the form/ });
  t.throws(() => defineRules([{ ...base, spec: " " }]), { message: /quotes no spec sentence/ });
  t.throws(() => defineRules([{ ...base, status: 400, specStatuses: [422] }]), { message: /answers 400/ });
  t.same(defineRules([base]), [base]);
});

t.test("accepted statuses under each profile", async (t) => {
  const mounts = ruleById("pods.create.mounts-exclusive");
  t.same(acceptedStatuses(mounts, "lenient"), [400]);
  t.same(acceptedStatuses(mounts, "strict"), [400]);
  const unknown = ruleById("pods.create.unknown-property");
  t.equal(acceptedStatuses(unknown, "lenient"), "any-4xx");
  t.same(acceptedStatuses(unknown, "strict"), [422]);
  t.ok(statusAccepted(unknown, "lenient", 400));
  t.notOk(statusAccepted(unknown, "strict", 400));
  t.notOk(statusAccepted(unknown, "lenient", 500));
  const payload = ruleById("jobs.payload.run-limit");
  t.same(acceptedStatuses(payload, "lenient"), [400, 413]);
  t.same(acceptedStatuses(payload, "strict"), [413]);
  const retry = ruleById("jobs.retry.only-failed");
  t.equal(acceptedStatuses(retry, "lenient"), "any-4xx");
  t.same(acceptedStatuses(retry, "strict"), [409]);
});

t.test("every rule carries its lenient reading, by the one principle", async (t) => {
  for (const rule of rules) {
    t.ok(rule.lenient.length > 20, `${rule.id} has a lenient reading`);
    if (rule.source === "choices") t.match(rule.lenient, /not judged under the lenient profile/, `${rule.id}: choices.md's answers are strict-only`);
    // A request rule whose status the spec does not state accepts any refusal, never only the emulator's status.
    if (rule.strictOnly !== undefined) t.match(rule.lenient, /not judged under the lenient profile/, `${rule.id}: a rule asserting more than its sentence is strict-only`);
    if (rule.source === "spec" && rule.kind === "request" && rule.status !== undefined && !rule.specStatuses && !rule.lenientStatuses && rule.strictOnly === undefined) {
      t.match(rule.lenient, /4xx/, `${rule.id}: a refusal (4xx) is accepted`);
      t.equal(acceptedStatuses(rule, "lenient"), "any-4xx", `${rule.id}: lenient accepts any 4xx`);
    }
    if (rule.specStatuses) t.match(rule.lenient, /states the answer/, `${rule.id}: the spec's status is kept under both profiles`);
  }
  // The four readings the issue names, each with the answer that keeps the constraint.
  t.match(ruleById("jobs.runsync.wait-range").lenient, /clamped/);
  t.match(ruleById("pods.create.global-networking-nvidia").lenient, /left off/);
  t.match(ruleById("pods.create.global-networking-data-center").lenient, /left off/);
  t.match(ruleById("jobs.transition-legal").lenient, /moves nothing/);
  t.match(ruleById("pods.create.created-201").lenient, /own catalog.*count 1.*availability/s);
});
