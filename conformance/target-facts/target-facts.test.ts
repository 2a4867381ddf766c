/**
 * How the suite reads a target: the --target-profile file (validated, errors naming the field,
 * exit 2), the target's OpenAPI document, harmless probes (against the emulator and the variant,
 * which shows none of the emulator's conventions), --discover, and the report's "how this target
 * was read" with the rules each fact unlocked and skips that name the missing fact.
 */
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import t from "tap";
import type { ConformanceReport } from "../../reports/conformance-report.ts";
import { renderHtmlReport } from "../../reports/html-report.ts";
import { run } from "../cli.ts";
import { Client } from "../client.ts";
import { conform } from "../conform.ts";
import { startEmbedded } from "../embedded.ts";
import { startBroken } from "../test-support/broken-target.ts";
import { startVariant, VARIANT_IMAGE_MODEL } from "../test-support/variant-target.ts";
import "./read-list.part.test.ts";
import "./web-links.part.test.ts";
import { DEFAULT_REST_SEGMENTS, discoverTargetFacts, parseTargetProfile, readOpenApi } from "./index.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out: () => out.join(""), err: () => err.join("") };
}

t.test("a profile is validated with ajv; every mistake names its field", async (t) => {
  t.same(parseTargetProfile(JSON.stringify({ podActionPath: "/v2/pods/{podId}/{action}", imageModel: null }), "p.json"), {
    podActionPath: "/v2/pods/{podId}/{action}",
    imageModel: null,
  });
  t.same(parseTargetProfile(JSON.stringify({ networkVolumes: { dataCenterField: "volumes" }, $comment: "mine" }), "p.json"), { networkVolumes: { dataCenterField: "volumes" } });
  const bad = (v: unknown) => {
    try {
      parseTargetProfile(typeof v === "string" ? v : JSON.stringify(v), "p.json");
      return "";
    } catch (err) {
      return (err as Error).message;
    }
  };
  t.match(bad({ podActionPath: "/v2/pods/action" }), /podActionPath: must be a path starting with \/ that contains \{podId\}/);
  t.match(bad({ podActionpath: "/x" }), /unknown key "podActionpath" \(known keys: podActionPath/);
  t.match(bad({ networkVolumes: { path: 3 } }), /networkVolumes\.path: must be string/);
  t.match(bad({ imageModel: "two words" }), /imageModel: must match pattern/);
  t.match(bad("{ not json"), /p\.json is not JSON/);
  t.match(bad([]), /\(the file\): must be object/);
});

t.test("an OpenAPI document is read for the action, delete, list, volume and catalog operations", async (t) => {
  const doc = {
    openapi: "3.0.3",
    paths: {
      "/api/v2/pods": { get: {}, post: {} },
      "/api/v2/pods/{pod_id}": { get: {}, patch: {} },
      "/api/v2/pods/{pod_id}/start": { post: {} },
      "/api/v2/pods/{pod_id}/stop": { post: {} },
      "/api/v2/network-volumes": { get: {} },
      "/api/v2/gpu-types": { get: {} },
    },
  };
  const found = readOpenApi(doc, "/swagger.json")!;
  t.same(found.values, {
    podActionPath: "/api/v2/pods/{podId}/{action}",
    podDeletePath: null,
    podListPath: "/api/v2/pods",
    networkVolumes: { path: "/api/v2/network-volumes" },
    gpuCatalogPath: "/api/v2/gpu-types",
    restSegments: [...DEFAULT_REST_SEGMENTS, "gpu-types"],
  });
  t.match(found.evidence.podActionPath, /POST \/api\/v2\/pods\/\{pod_id\}\/(start|stop) in \/swagger\.json/);
  t.match(found.evidence.podDeletePath, /without DELETE/);
  t.equal(readOpenApi({ openapi: "3.1.0", paths: { "/users": { get: {} } } }, "/openapi.json"), undefined, "a document of another API says nothing");
  t.equal(readOpenApi({ hello: 1 }, "/openapi.json"), undefined);
});

t.test("an OpenAPI document that serves #14's operations under other paths: its registries list and every REST group it names", async (t) => {
  const doc = {
    swagger: "2.0",
    paths: {
      "/api/v3/pods": { get: {} },
      "/api/v3/pods/{id}": { delete: {} },
      "/api/v3/pod-templates": { get: {}, post: {} },
      "/api/v3/pod-templates/{id}": { patch: {}, delete: {} },
      "/api/v3/serverless-endpoints": { get: {}, post: {} },
      "/api/v3/registry-credentials": { get: {}, post: {} },
      "/api/v3/storage/volumes": { post: {} },
      "/api/v3/{endpointId}/run": { post: {} },
    },
  };
  const found = readOpenApi(doc, "/swagger.json")!;
  t.equal(found.values.registriesPath, "/api/v3/registry-credentials");
  t.equal(found.evidence.registriesPath, "GET /api/v3/registry-credentials in /swagger.json");
  t.same(found.values.restSegments, [...DEFAULT_REST_SEGMENTS, "pod-templates", "registry-credentials", "serverless-endpoints", "storage"], "a job route's parameter segment is no group");
  t.match(found.evidence.restSegments, /the groups pod-templates, registry-credentials, serverless-endpoints, storage named in \/swagger\.json/);
  t.same(parseTargetProfile(JSON.stringify({ registriesPath: null, restSegments: ["pods", "my-group"] }), "p.json"), { registriesPath: null, restSegments: ["pods", "my-group"] });
  t.throws(() => parseTargetProfile(JSON.stringify({ restSegments: ["a/b"] }), "p.json"), /restSegments\/0|restSegments\.0/);
});

t.test("jobs.reserved-endpoint-ids tests every REST group the target names (restSegments), not a fixed list", async (t) => {
  const target = await startBroken();
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const only = ["jobs.reserved-endpoint-ids"];
  const plain = await conform({ seed: 5, runs: 1, reportDir: dir, minCoverage: 0, only, profile: "strict" }, { startEmbedded: async () => target });
  t.equal(plain.report.rules.find((r) => r.id === only[0])!.status, "pass", JSON.stringify(plain.report.rules.find((r) => r.id === only[0])));
  const fact = (plain.report.targetFacts ?? []).find((f) => f.key === "restSegments")!;
  t.equal(fact.source, "openapi", "read from the emulator's own document");
  t.ok((fact.value as string[]).includes("serverless") && (fact.value as string[]).includes("account"), "the paths newer official clients call are reserved");
  t.same(fact.unlocked, only);
  // A target that documents a group named like one of its job endpoints: that segment is judged too.
  const profile = join(dir, "profile.json");
  await writeFile(profile, JSON.stringify({ restSegments: [...DEFAULT_REST_SEGMENTS, "alpha-echo"] }));
  const shadowed = await conform({ seed: 5, runs: 1, reportDir: dir, minCoverage: 0, only, profile: "strict", targetProfile: profile }, { startEmbedded: async () => target });
  const rule = shadowed.report.rules.find((r) => r.id === only[0])!;
  t.equal(rule.status, "fail");
  t.match(JSON.stringify(rule), /GET \/v2\/alpha-echo\/health is not a job endpoint's health.*restSegments: profile/);
});

t.test("discovery: the emulator from its OpenAPI document, the variant by probes, a profile over both", async (t) => {
  const emulator = await startBroken();
  const variant = await startVariant({ speed: 40 });
  t.teardown(async () => {
    await emulator.stop();
    await variant.stop();
  });
  const read = async (target: { rest: string; serverless: string; keys: { api?: string } }, profile = {}) => {
    const client = Client.create({ timeoutMs: 10_000, keys: target.keys });
    try {
      return await discoverTargetFacts({ client, rest: target.rest, serverless: target.serverless, profile, hasApiKey: true, timeoutMs: 10_000 });
    } finally {
      await client.close();
    }
  };
  const e = await read({ rest: emulator.rest, serverless: emulator.serverless!, keys: emulator.keys });
  t.same([e.podActionPath.value, e.podActionPath.source], ["/v2/pods/{podId}/action", "openapi"]);
  t.same([e.networkVolumes.value, e.networkVolumes.source], [{ path: "/v2/networkvolumes" }, "openapi"]);
  t.same([e.imageModel.value, e.imageModel.source], ["flux-1-schnell", "probe"]);
  t.same([e.registriesPath.value, e.registriesPath.source], ["/v2/containerregistryauth", "openapi"]);

  const v = await read(variant);
  t.same([v.podActionPath.value, v.podActionPath.source], ["/v2/pods/{podId}/{action}", "probe"], "actions in the path, found by comparing with a path nobody serves");
  t.same([v.podDeletePath.value, v.podDeletePath.source], ["/v2/pods/{podId}", "probe"]);
  t.same([v.networkVolumes.value, v.networkVolumes.source], [{ dataCenterField: "volumes" }, "probe"], "volumes listed in the data-center catalog");
  t.same([v.imageModel.value, v.imageModel.source], [VARIANT_IMAGE_MODEL, "probe"], "a well-known slug whose health answers");
  t.same([v.gpuCatalogPath.value, v.gpuCatalogPath.source], ["/v2/catalog/gpus", "probe"]);
  t.same([v.registriesPath.value, v.registriesPath.source], ["/v2/containerregistryauth", "probe"]);
  t.same([v.restSegments.value, v.restSegments.source], [DEFAULT_REST_SEGMENTS, "default"], "only a document names groups");

  const p = await read(variant, { imageModel: null, podDeletePath: null });
  t.same([p.imageModel.value, p.imageModel.source, p.podDeletePath.value, p.podDeletePath.source], [null, "profile", null, "profile"], "the profile wins");
  t.equal(p.podActionPath.source, "probe", "facts the profile leaves out are still discovered");
});

t.test("--discover prints a ready profile and exits 0; --target-profile errors exit 2 naming the field", async (t) => {
  const variant = await startVariant({ speed: 40 });
  t.teardown(() => variant.stop());
  const dir = t.testdir();
  const keys = ["--api-key", variant.keys.api!];
  const c = capture();
  t.equal(await run(["--target", variant.rest, ...keys, "--discover"], c.io, { startEmbedded }), 0);
  const printed = c.out();
  // Every line on stderr comes under a heading that names the command (#35: one stray line).
  const err = c.err().split("\n").filter(Boolean);
  t.match(err[0], /^cpsim conform --discover: /, `stderr starts with a heading: ${err[0]}`);
  for (const line of err) t.match(line, /^(cpsim conform --discover: |  )/, `under a heading: ${line}`);
  const profile = JSON.parse(printed) as Record<string, unknown>;
  t.equal(profile["podActionPath"], "/v2/pods/{podId}/{action}");
  t.same(profile["networkVolumes"], { dataCenterField: "volumes" });
  t.match(String(profile["description"]), /podActionPath \(probe: POST \/v2\/pods\/<unknown id>\/stop/);
  const file = join(dir, "target.json");
  await writeFile(file, printed);
  t.same(parseTargetProfile(await readFile(file, "utf8"), file).imageModel, VARIANT_IMAGE_MODEL, "what --discover prints is a valid profile");

  const bad = join(dir, "bad.json");
  await writeFile(bad, JSON.stringify({ podActionPath: "/v2/pods/action", networkVolume: {} }));
  const e = capture();
  t.equal(await run(["--target", variant.rest, ...keys, "--target-profile", bad, "--only", "pods.status-enum"], e.io, { startEmbedded }), 2);
  t.match(e.err(), /--target-profile .*bad\.json is not a valid target profile/);
  t.match(e.err(), /podActionPath: must be a path starting with \/ that contains \{podId\}/);
  t.match(e.err(), /unknown key "networkVolume"/);
  const m = capture();
  t.equal(await run(["--target-profile", join(dir, "missing.json"), "--discover"], m.io, { startEmbedded }), 2);
  t.match(m.err(), /missing\.json cannot be read: ENOENT/);
  const h = capture();
  t.equal(await run(["--help"], h.io), 0);
  t.match(h.out(), /--target-profile FILE/);
  t.match(h.out(), /--discover/);
});

t.test("the report says how the target was read; a skip names the missing fact and its profile key", async (t) => {
  const target = await startBroken();
  t.teardown(() => target.stop());
  const dir = t.testdir();
  const profile = join(dir, "profile.json");
  await writeFile(profile, JSON.stringify({ imageModel: null }));
  const { report, exitCode } = await conform(
    { seed: 5, runs: 3, reportDir: dir, targetProfile: profile, minCoverage: 0, only: ["jobs.public.*", "pods.status-enum", "pods.network-volume-same-data-center"] },
    { startEmbedded: async () => target },
  );
  t.equal(exitCode, 0);
  const facts = new Map((report.targetFacts ?? []).map((f) => [f.key, f]));
  t.same(facts.get("imageModel"), { ...facts.get("imageModel"), value: null, source: "profile", unlocked: [] });
  t.equal(facts.get("podActionPath")?.source, "openapi");
  t.ok(facts.get("podActionPath")?.unlocked.includes("pods.status-enum"), "the action route unlocked the lifecycle rules it served");
  t.ok(facts.get("networkVolumes")?.unlocked.includes("pods.network-volume-same-data-center"));
  for (const id of ["jobs.public.same-paths", "jobs.public.image-output"]) {
    const r = report.rules.find((x) => x.id === id)!;
    t.equal(r.status, "skip");
    t.match(r.reason, /a public image-generation model's slug is unknown for this target .*--target-profile file under "imageModel"/);
  }
  t.ok(report.rules.every((r) => typeof r.lenient === "string" && r.lenient.length > 0), "each rule's lenient reading is in report.json");
  const saved = JSON.parse(await readFile(join(dir, "report.json"), "utf8")) as ConformanceReport;
  t.same(saved.targetFacts, report.targetFacts);
  const html = renderHtmlReport(report);
  t.match(html, /<h2>How this target was read<\/h2>/);
  t.match(html, /<code>podActionPath<\/code>/);
});

t.test("probes on a target with a model catalog, no volumes and no recognisable action route", async (t) => {
  const { probeImageModel, probeNetworkVolumes, probePodActions } = await import("./probe-facts.ts");
  const answers: Record<string, { status: number; json?: unknown; text?: string }> = {
    "GET rest /v2/catalog/models": { status: 200, json: { models: [{ slug: "llama-3", task: "text" }, { slug: "my-image-gen", task: "text-to-image" }] } },
    "GET serverless /v2/my-image-gen/health": { status: 200, json: { jobs: {}, workers: {} } },
    "GET rest /v2/catalog/datacenters": { status: 200, json: { dataCenters: [{ id: "dc1", networkVolumeTypes: ["standard"] }] } },
  };
  const sent: string[] = [];
  const probe = async (spec: { method: string; base: string; path: string }) => {
    const key = `${spec.method} ${spec.base} ${spec.path}`;
    sent.push(key);
    const a = answers[key] ?? { status: 404, json: { detail: "not here" } };
    return { status: a.status, json: a.json, text: a.text ?? JSON.stringify(a.json), headers: {} } as never;
  };
  t.same(await probeImageModel(probe), { value: "my-image-gen", evidence: `GET /v2/catalog/models lists the image model "my-image-gen", and its health answers` });
  t.notOk(sent.some((s) => s.includes("llama-3/health")), "a text model is not tried");
  const volumes = await probeNetworkVolumes(probe);
  t.equal(volumes?.value, null, "no collection and no volume records in the data-center entries: the target has none");
  t.match(volumes?.evidence, /carry no volume records/);
  t.equal(await probePodActions(probe), undefined, "every route answers like a path nobody serves: undecided, the default stays");
  t.ok(sent.every((s) => s.startsWith("GET ") || s.includes("cpsim-probe-")), "only reads, or requests about a pod id that cannot exist");
});

t.test("without a key only the OpenAPI document is read, without credentials, and the probes wait", async (t) => {
  const emulator = await startBroken();
  t.teardown(() => emulator.stop());
  const client = Client.create({ timeoutMs: 10_000, keys: {} });
  t.teardown(() => client.close());
  const facts = await discoverTargetFacts({ client, rest: emulator.rest, serverless: emulator.serverless!, hasApiKey: false, timeoutMs: 10_000 });
  t.equal(facts.podActionPath.source, "openapi", "the emulator's document needs no key");
  t.equal(facts.imageModel.source, "default", "no probe was sent");
});
