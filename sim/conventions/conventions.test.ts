/**
 * The open-choice space (sim/conventions/): its catalog, its draw, its parsing, the page
 * docs/conventions.md generated from it, and `cpsim serve --conventions` answering with a point of
 * it over a real server. (The suite across the space: conformance/variant/space.test.ts.)
 */
import { request as httpRequest } from "node:http";
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import t from "tap";
import { UsageError } from "../cli/args.ts";
import { createServeCommand } from "../http/cli.ts";
import type { EmulatorHandle } from "../http/emulator.ts";
import { packageRoot } from "../package-root.ts";
import { DIMENSIONS, EMULATOR_CONVENTIONS, conventionsFrom, describeDifferences, drawConventions, parseConventionsArg, renderConventionsDoc } from "./index.ts";

t.test("the catalog: each dimension has its spec sentence and at least three distinct legal values", async (t) => {
  t.equal(new Set(DIMENSIONS.map((d) => d.id)).size, DIMENSIONS.length, "dimension ids are distinct");
  for (const d of DIMENSIONS) {
    t.ok(d.spec.length > 20 && d.title.length > 0, `${d.id}: a title and the sentence that leaves it open`);
    t.ok(d.values.length >= 3, `${d.id}: at least three values`);
    t.equal(new Set(d.values.map((v) => v.value)).size, d.values.length, `${d.id}: values distinct`);
    t.equal(EMULATOR_CONVENTIONS[d.id], d.values[0].value, `${d.id}: the emulator's is the first`);
  }
});

t.test("the draw: seeded, seed 0 the emulator's, and 200 seeds reach every value of every dimension", async (t) => {
  t.same(drawConventions(7), drawConventions(7), "the same seed, the same conventions");
  t.equal(drawConventions(0), EMULATOR_CONVENTIONS);
  t.notSame(drawConventions(1), drawConventions(2));
  const seen = new Map<string, Set<unknown>>();
  for (let seed = 1; seed <= 200; seed++) for (const [k, v] of Object.entries(drawConventions(seed))) seen.set(k, (seen.get(k) ?? new Set()).add(v));
  for (const d of DIMENSIONS) t.same([...(seen.get(d.id) ?? [])].sort(), d.values.map((v) => v.value).sort(), `${d.id}: every value drawn`);
  t.match(describeDifferences(drawConventions(3)), /^(\w+=\S+ ?)+$/, "differences said as id=value words");
  t.equal(describeDifferences(EMULATOR_CONVENTIONS), "the emulator's");
});

t.test("a conventions object or file: named values, the rest the emulator's; anything else refused saying what is accepted", async (t) => {
  t.same(conventionsFrom({ lists: "bare", pageSize: 3 }), { ...EMULATOR_CONVENTIONS, lists: "bare", pageSize: 3 });
  t.throws(() => conventionsFrom({ lists: "pages" }), /lists must be one of "choices", "bare", .*got "pages"/);
  t.throws(() => conventionsFrom({ colour: "red" }), /no dimension "colour"; the dimensions are lists, pageSize/);
  t.throws(() => conventionsFrom([1]), /must be a JSON object/);
  t.equal(parseConventionsArg("emulator").conventions, EMULATOR_CONVENTIONS);
  t.same(parseConventionsArg("12").conventions, drawConventions(12));
  const dir = t.testdir({ "c.json": JSON.stringify({ times: "z-micros" }), "bad.json": "{nope" });
  t.same(parseConventionsArg(join(dir, "c.json")), { conventions: { ...EMULATOR_CONVENTIONS, times: "z-micros" }, source: join(dir, "c.json") });
  t.throws(() => parseConventionsArg(join(dir, "bad.json")), /not JSON .*give a seed \(a whole number; 0 is the emulator's\), a JSON file naming a value per dimension, or "emulator"/);
  t.throws(() => parseConventionsArg("emulater"), { code: "CPSIM_ERR_CONVENTIONS" });
  t.throws(() => parseConventionsArg("-1"), /not a seed, not "emulator", and not a readable file \(ENOENT\)/);
});

t.test("docs/conventions.md holds the catalog as rendered from the data", async (t) => {
  const path = join(packageRoot, "docs", "conventions.md");
  const page = await readFile(path, "utf8");
  const m = /(<!-- conventions:start -->\n)([^]*?)(<!-- conventions:end -->)/.exec(page);
  t.ok(m, "the page has the generated section's markers");
  const rendered = renderConventionsDoc();
  // CPSIM_WRITE_DOCS=1 rewrites the section from the data (after a change to dimensions.ts).
  if (process.env.CPSIM_WRITE_DOCS === "1" && m) await writeFile(path, page.replace(m[0], `${m[1]}${rendered}${m[3]}`));
  else t.equal(m?.[2], rendered, "the section matches sim/conventions/dimensions.ts (CPSIM_WRITE_DOCS=1 npx tap sim/conventions/conventions.test.ts rewrites it)");
  for (const d of DIMENSIONS) t.match(m?.[2] ?? "", `\`${d.id}\``);
});

function serve(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  let stop: () => void = () => {};
  let listening: (e: EmulatorHandle) => void = () => {};
  const ready = new Promise<EmulatorHandle>((r) => (listening = r));
  const exit = createServeCommand({ onStopSignal: (s) => ((stop = s), () => {}), onListening: listening }).run(argv, { stdout: (s) => void out.push(s), stderr: (s) => void err.push(s) });
  return { out, err, exit, ready, stop: () => stop() };
}

/** A request with the header names as they came over the wire. */
function raw(url: string, key: string, method = "GET", body?: unknown): Promise<{ status: number; names: string[]; headers: Record<string, string | string[] | undefined>; json: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode!, names: res.rawHeaders.filter((_, i) => i % 2 === 0), headers: res.headers, json: text ? JSON.parse(text) : undefined }));
    });
    req.on("error", reject);
    req.end(body ? JSON.stringify(body) : undefined);
  });
}

t.test("cpsim serve --conventions FILE: the emulator answers with those conventions", async (t) => {
  const dir = t.testdir({
    "c.json": JSON.stringify({ lists: "bare", actions: "verb", times: "z-seconds", headerCase: "canonical", description: "link-header", extraFields: "request-id", memberOrder: "sorted", jobIds: "suffix-u1", jobNotFound: 410, globalNetwork: "string", catalogNumbers: "string", gpuClouds: "by-class", vcpuCounts: "sparse" }),
  });
  const r = serve(["--clock", "manual", "--json", "--conventions", join(dir, "c.json")]);
  await r.ready;
  const info = JSON.parse(r.out.join("").split("\n")[0]!);
  t.equal(info.conventions.lists, "bare", "the --json line names the conventions");
  t.match(r.err.join(""), /conventions .*c\.json: lists=bare actions=verb jobIds=suffix-u1 times=z-seconds jobNotFound=410/, "stderr names the values that differ from the emulator's");
  const key = info.apiKeys[0].key as string;
  const list = await raw(`${info.baseUrl}/v2/pods`, key);
  t.ok(Array.isArray(list.json), "lists=bare: the pod list is an array");
  t.ok(list.names.includes("Link") && list.names.includes("Ratelimit-Policy"), "headerCase=canonical: names spelled so on the wire");
  t.match(list.headers["link"], /<\/api\/spec\.json>; rel="service-desc"/, "description=link-header");
  const gpus = await raw(`${info.baseUrl}/v2/catalog/gpus`, key);
  const gpu = (gpus.json as { id: string }[])[0]!.id;
  t.same((gpus.json as { id: string }[]).filter((g) => /GeForce/.test(g.id)), [], "gpuClouds=by-class: no GeForce card in the SECURE catalog");
  t.ok((gpus.json as { memoryInGb: unknown }[]).every((g) => typeof g.memoryInGb === "string"), "catalogNumbers=string: memoryInGb a string");
  const dcs = (await raw(`${info.baseUrl}/v2/catalog/datacenters`, key)).json as { globalNetwork: unknown }[];
  t.same([...new Set(dcs.map((d) => d.globalNetwork))].sort(), ["disabled", "enabled"], "globalNetwork=string");
  const cpus = (await raw(`${info.baseUrl}/v2/catalog/cpus`, key)).json as { id: string; vcpu: { allowed: unknown } }[];
  t.same(cpus.find((f) => f.id === "cpu3c")?.vcpu.allowed, ["2", "8", "32"], "vcpuCounts=sparse, as strings");
  const cpuPod = (vcpuCount: number) => raw(`${info.baseUrl}/v2/pods`, key, "POST", { name: "cpu", image: "ubuntu:22.04", cpu: { id: "cpu3c", vcpuCount } });
  t.ok((await cpuPod(4)).status >= 400, "vcpuCounts=sparse: 4 is no count of the flavor");
  t.equal((await cpuPod(8)).status, 201, "8 is");
  const created = await raw(`${info.baseUrl}/v2/pods`, key, "POST", { name: "space", image: "ubuntu:22.04", gpu: { id: gpu } });
  t.equal(created.status, 201);
  t.match(created.json.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/, "times=z-seconds");
  t.match(created.json.requestId, /^req_/, "extraFields=request-id");
  t.same(Object.keys(created.json), Object.keys(created.json).sort(), "memberOrder=sorted");
  t.equal((await raw(`${info.baseUrl}/v2/pods/${created.json.id}/action`, key, "POST", { action: "stop" })).status, 404, "actions=verb: no /action route");
  t.equal((await raw(`${info.baseUrl}/v2/pods/${created.json.id}/stop`, key, "POST", {})).status, 200, "actions=verb: POST .../stop");
  const job = await raw(`${info.baseUrl}/v2/conformance/run`, key, "POST", { input: { sleep_ms: 1 } });
  t.match(job.json.id, /-u1$/, "jobIds=suffix-u1");
  t.equal((await raw(`${info.baseUrl}/v2/conformance/status/${job.json.id}`, key)).status, 200, "the id given out is read back");
  t.equal((await raw(`${info.baseUrl}/v2/conformance/status/no-such-job-u1`, key)).status, 410, "jobNotFound=410 for an id never given out");
  const spec = await raw(`${info.baseUrl}/api/spec.json`, key);
  t.equal(spec.json.openapi, "3.1.0");
  t.ok(spec.json.paths["/v2/pods/{podId}/stop"] && !spec.json.paths["/v2/pods/{podId}/action"], "the description names the routes served");
  t.equal((await raw(`${info.baseUrl}/openapi.json`, key)).status, 404, "and is not where the emulator keeps it");
  r.stop();
  t.equal(await r.exit, 0);
});

t.test("cpsim serve --conventions SEED names the seed's values; a bad value is a usage error naming the accepted forms", async (t) => {
  const r = serve(["--clock", "manual", "--json", "--conventions", "7"]);
  await r.ready;
  const info = JSON.parse(r.out.join("").split("\n")[0]!);
  t.same(info.conventions, drawConventions(7));
  t.match(r.err.join(""), `conventions 7: ${describeDifferences(drawConventions(7))}`);
  r.stop();
  t.equal(await r.exit, 0);
  const bad = serve(["--clock", "manual", "--conventions", "seven"]);
  await t.rejects(bad.exit, UsageError);
  await t.rejects(serve(["--conventions", "seven"]).exit, /--conventions seven: not a seed, not "emulator", and not a readable file .*give a seed/);
});
