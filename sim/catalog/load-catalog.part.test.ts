import t from "tap";
import { join } from "node:path";
import { loadCatalog, CatalogError, CATALOG_FILES, RESERVED_ENDPOINT_IDS } from "./index.ts";
import { bundledFiles, bundledText, type Files } from "./test-files.ts";

/** A catalog directory holding the bundled files, with `changes` (file name -> text, or null to omit). */
function catalogDir(t: { testdir(content: Record<string, string>): string }, changes: Record<string, string | null> = {}): string {
  const entries = CATALOG_FILES.map((file) => [file, file in changes ? changes[file] : bundledText(file)] as const);
  return t.testdir(Object.fromEntries(entries.filter((e): e is readonly [string, string] => e[1] !== null)));
}

function loadError(dir: string): CatalogError {
  try {
    loadCatalog(dir);
  } catch (e) {
    if (e instanceof CatalogError) return e;
    throw e;
  }
  throw new Error("the catalog was accepted");
}

const json = (f: Files, file: string): string => JSON.stringify(f[file], null, 2);

t.test("the bundled catalog loads and has the expected shape", async (t) => {
  const c = loadCatalog();
  t.ok(c.gpuTypes.length >= 12, "at least a dozen GPU types");
  t.ok(c.dataCenters.length >= 6, "at least six data centers");
  t.ok(c.dataCenters.some((d) => d.globalNetwork) && c.dataCenters.some((d) => !d.globalNetwork), "global networking in some data centers only");
  t.ok(c.cpuFlavors.length >= 6);

  const keys = c.accounts.flatMap((a) => a.keys.map((k) => ({ account: a.id, ...k })));
  const full = new Set(keys.filter((k) => k.access === "full").map((k) => k.account));
  t.ok(full.has("acct-alpha") && full.has("acct-beta"), "two accounts with full keys");
  t.ok(keys.some((k) => k.account === "acct-alpha" && k.access === "read-only"), "a read-only key");
  t.ok(keys.some((k) => k.account === "acct-load" && k.access === "exempt"), "an exempt key for load runs");
  t.same(c.accounts.find((a) => a.id === "acct-beta")?.rateLimits, { minute: 60, hour: 3000, day: 50000 }, "beta has the platform's example quotas");
  t.equal(c.accounts.find((a) => a.id === "acct-load")?.rateLimits, null);

  const conformance = c.endpoints.find((e) => e.id === "conformance");
  t.match(conformance, { accountId: null, handler: "conformance", workersMin: 0, workersMax: 3, idleTimeoutMs: 5000, executionTimeoutMs: 600000 }, "choices.md defaults");
  const publicModels = c.endpoints.filter((e) => e.public);
  t.ok(publicModels.some((e) => e.handler === "image-generation" && e.slug === "flux-1-schnell"));
  t.ok(publicModels.some((e) => e.handler === "text-generation" && e.slug === "llama-3.1-8b-instruct"));
  for (const account of full) t.ok(c.endpoints.some((e) => e.accountId === account && !e.public), `a private endpoint of ${account}`);
  for (const e of c.endpoints) t.notOk(RESERVED_ENDPOINT_IDS.includes(e.id), `${e.id} is routable`);

  t.ok(c.networkVolumes.length > 0 && c.templates.length > 0 && c.registries.length > 0);
  t.ok(Object.isFrozen(c.gpuTypes[0]), "frozen");
});

t.test("stock is meaningful: hundreds of popular GPUs, scarce H200 and MI300X, clouds that differ", async (t) => {
  const c = loadCatalog();
  const gpus = new Map<string, { SECURE: number; COMMUNITY: number }>();
  for (const h of c.hosts) {
    if (h.kind !== "gpu") continue;
    const n = gpus.get(h.gpuTypeId) ?? { SECURE: 0, COMMUNITY: 0 };
    n[h.cloud] += h.gpuCount;
    gpus.set(h.gpuTypeId, n);
  }
  const total = (id: string): number => (gpus.get(id)?.SECURE ?? 0) + (gpus.get(id)?.COMMUNITY ?? 0);
  for (const id of ["NVIDIA GeForce RTX 4090", "NVIDIA A100-SXM4-80GB", "NVIDIA H100 80GB HBM3", "NVIDIA RTX A6000", "NVIDIA L40S"]) {
    t.ok(total(id) >= 200, `${id}: ${total(id)} GPUs`);
  }
  t.ok(total("NVIDIA H200") > 0 && total("NVIDIA H200") <= 40, "H200 scarce");
  t.ok(total("AMD Instinct MI300X OAM") > 0 && total("AMD Instinct MI300X OAM") <= 24, "MI300X scarce");
  const consumer = ["NVIDIA GeForce RTX 4090", "NVIDIA GeForce RTX 3090"];
  for (const id of consumer) t.ok(gpus.get(id)!.COMMUNITY > gpus.get(id)!.SECURE, `${id} mostly community`);
  for (const type of c.gpuTypes) t.ok(total(type.id) > 0, `${type.id} has hosts`);
  t.ok(c.gpuTypes.some((g) => g.secureCloud && !g.communityCloud), "some types secure-only");
  t.ok(c.gpuTypes.some((g) => !g.secureCloud && g.communityCloud), "some types community-only");
  t.ok(c.hosts.some((h) => h.kind === "cpu"), "CPU hosts");
});

t.test("a defect in a copied catalog directory is reported with the directory as given", async (t) => {
  const files = bundledFiles();
  files["hosts.json"].hosts[3].gpuCount = "eight";
  const dir = catalogDir(t, { "hosts.json": json(files, "hosts.json") });
  const e = loadError(dir);
  t.equal(e.code, "CPSIM_ERR_FIXTURE");
  t.equal(e.message, `${join(dir, "hosts.json")}: /hosts/3/gpuCount: must be integer >= 1, got "eight"`);
});

t.test("a directory given with a trailing slash is named without a double one", async (t) => {
  const files = bundledFiles();
  files["endpoints.json"].endpoints[3].id = "billing";
  const dir = catalogDir(t, { "endpoints.json": json(files, "endpoints.json") });
  t.match(loadError(dir + "/").message, `${dir}/endpoints.json: /endpoints/3/id: must not be a reserved path segment`);
});

t.test("malformed JSON names the file, line and column", async (t) => {
  const text = bundledText("accounts.json").replace('"id": "acct-beta",', '"id": "acct-beta"');
  const line = text.slice(0, text.indexOf('"acct-beta"')).split("\n").length + 1;
  const e = loadError(catalogDir(t, { "accounts.json": text }));
  t.match(e.message, new RegExp(`accounts\\.json: malformed JSON at line ${line}, column \\d+: `));
  t.equal(e.issues.length, 1);
});

t.test("an empty file and a truncated file are malformed JSON too", async (t) => {
  const truncated = bundledText("registries.json").slice(0, 100);
  const e = loadError(catalogDir(t, { "templates.json": "", "registries.json": truncated }));
  t.match(e.message, "templates.json: malformed JSON at line 1, column 1: Unexpected end of JSON input");
  t.match(e.message, "registries.json: malformed JSON at line ");
  t.equal(e.issues.length, 2, "every bad file is reported, not just the first");
});

t.test("a missing file is named", async (t) => {
  const e = loadError(catalogDir(t, { "network-volumes.json": null }));
  t.match(e.message, "network-volumes.json: file is missing; every catalog file is required");
});

t.test("a missing directory is named", async (t) => {
  const e = loadError("/nonexistent/catalog");
  t.equal(e.message, `/nonexistent/catalog: is not a catalog directory (it must hold ${CATALOG_FILES.join(", ")})`);
});

t.test("a byte-order mark is tolerated", async (t) => {
  const dir = catalogDir(t, { "registries.json": "\uFEFF" + bundledText("registries.json") });
  t.equal(loadCatalog(dir).registries.length, bundledFiles()["registries.json"].registries.length);
});
