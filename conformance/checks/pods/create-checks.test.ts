/**
 * The createPod, errors, catalog and versioning checks against the embedded emulator: no
 * failure in either profile, and none against targets that are correct but choose differently
 * where the spec is silent (other ids for GPU types, flavors and data centers, extra response
 * fields, 503 for no capacity, 422 where the emulator says 400, no REST catalog at all).
 */
import t from "tap";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { conform } from "../../conform.ts";
import { checks } from "../../check-registry.ts";
import type { Profile } from "../../options.ts";
import "./index.ts";
import "./create-location.part.test.ts";
import { AREA_GLOBS, editResponse, isCreatePod, testTarget, type Breakage } from "../../test-support/pods/create-test-target.ts";

/** The rules a lenient run skips: choices.md's catalog shapes, and the spec rules that are strict only (docs/profiles.md). */
const LENIENT_SKIPS = ["catalog.cpus.shape", "catalog.datacenters.shape", "catalog.gpus.shape", "pods.create.unknown-data-center", "pods.create.unknown-registry"];

async function runArea(breakage: Breakage | undefined, profile: Profile) {
  const target = testTarget(breakage);
  try {
    const { report } = await conform(
      { only: [...AREA_GLOBS], seed: 1, profile, reportDir: mkdtempSync(join(tmpdir(), "cpsim-pods-create-")) },
      { registry: checks, startEmbedded: target.start },
    );
    return report;
  } finally {
    await target.stop();
  }
}

const failuresOf = (report: Awaited<ReturnType<typeof runArea>>) =>
  report.rules.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`);

for (const profile of ["lenient", "strict"] as const) {
  t.test(`the emulator passes every check of the area (${profile})`, async (t) => {
    const report = await runArea(undefined, profile);
    t.same(failuresOf(report), []);
    const skipped = report.rules.filter((r) => r.status === "skip").map((r) => r.id);
    // Lenient skips only the choices.md shapes of the catalog and the rules asserting more than their sentence; strict runs everything.
    t.same(skipped.sort(), profile === "lenient" ? LENIENT_SKIPS : []);
    t.ok(report.rules.length >= 50, `${report.rules.length} rules ran`);
    t.ok(report.requests < 1500, `a modest request count (${report.requests})`);
  });
}

/** Maps every string equal to a key of `map` through it, deep inside a JSON value. */
function mapStrings(value: unknown, map: ReadonlyMap<string, string>): unknown {
  if (typeof value === "string") return map.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  }
  return value;
}

/** Another platform's names for the same things. */
const ALIASES: readonly [string, string][] = [
  ["NVIDIA GeForce RTX 4090", "rtx-4090-24g"],
  ["NVIDIA A100 80GB PCIe", "a100-pcie-80g"],
  ["NVIDIA H100 80GB HBM3", "h100-sxm-80g"],
  ["AMD Instinct MI300X OAM", "amd-mi300x-192g"],
  ["cpu3c", "compute-v3"],
  ["cpu3g", "general-v3"],
  ["US-TX-3", "dallas-1"],
  ["EU-RO-1", "bucharest-1"],
  ["US-KS-2", "kansas-2"],
  ["vol-alpha-ustx3", "nv-7f3a"],
];
const toTarget = new Map(ALIASES);
const fromTarget = new Map(ALIASES.map(([a, b]) => [b, a]));

/** A correct platform that chooses differently wherever the spec is silent. */
const otherChoices: Breakage = (request, next) => {
  const aliased: ApiRequest = { ...request, body: mapStrings(request.body, fromTarget), path: request.path.split("/").map((s) => fromTarget.get(s) ?? s).join("/") };
  const out = next(aliased);
  if (out.kind !== "response") return out;
  let response: ApiResponse = out.response;
  let body = mapStrings(response.body, toTarget) as Record<string, unknown> | undefined;
  let status = response.status;
  if (typeof body === "object" && body !== null && !Array.isArray(body)) body = { ...body, vendorExtension: { region: "elsewhere" } };
  // No capacity: 503 rather than 409.
  if (status === 409 && isCreatePod(request)) status = 503;
  // A handler rule the spec gives no status for: 422 rather than 400 (the mount rules keep their 400).
  if (status === 400 && isCreatePod(request) && !/mounts/.test(String(body?.detail))) {
    status = 422;
    body = { ...body, title: "Unprocessable Entity" };
  }
  if (body && typeof body.status === "number") body = { ...body, status };
  response = { ...response, status, body };
  return { kind: "response", response };
};

t.test("a correct platform with other ids, statuses and extra fields passes (lenient)", async (t) => {
  const report = await runArea(otherChoices, "lenient");
  t.same(failuresOf(report), []);
  const skipped = report.rules.filter((r) => r.status === "skip").map((r) => r.id);
  t.same(skipped.sort(), LENIENT_SKIPS, "every spec rule was judged");
});

/** No REST catalog and no volume list: GPU types come from GraphQL, the rest is skipped. */
const noCatalog = editResponse((request, response) =>
  request.method === "GET" && /^\/v2\/(catalog\/|networkvolumes)/.test(request.path)
    ? { status: 404, headers: { "content-type": "application/problem+json" }, body: { title: "Not Found", status: 404, detail: "no such route" } }
    : response,
);

t.test("a platform without the REST catalog passes or skips, never fails (lenient)", async (t) => {
  const report = await runArea(noCatalog, "lenient");
  t.same(failuresOf(report), []);
  const passed = report.rules.filter((r) => r.status === "pass").map((r) => r.id);
  t.ok(passed.includes("pods.create.created-201"), "valid bodies built from GraphQL gpuTypes");
  t.ok(passed.includes("pods.create.unknown-gpu-type"));
  const skipped = report.rules.filter((r) => r.status === "skip").map((r) => r.id);
  t.ok(skipped.includes("pods.create.vcpu-power-of-two"), "CPU rules skip without flavors");
  t.ok(skipped.includes("pods.create.network-volume-data-center"), "volume rules skip without volumes");
});
