// The defect catalog as data, the edges it applies over real HTTP, and `cpsim serve --defect/--list-defects`.
import t, { type Test } from "tap";
import { rules } from "../api/rules/index.ts";
import { createServeCommand } from "../http/cli.ts";
import type { EmulatorHandle } from "../http/emulator.ts";
import { startEmulator } from "../http/index.ts";
import { PlatformBackend } from "../http/platform-backend.ts";
import { DEFECT_AREAS, defectByName, defects, defectsNamed, selectDefects } from "./index.ts";

const ALPHA = "cpsim_alpha_full_7f3a9c2e41b6d805";

t.test("the catalog: at least 60 defects, unique, each breaking one existing rule, every area covered", async (t) => {
  t.ok(defects.length >= 60, `${defects.length} defects`);
  t.equal(new Set(defects.map((d) => d.name)).size, defects.length, "unique names");
  const ids = new Set(rules.map((r) => r.id));
  for (const d of defects) {
    t.ok(ids.has(d.rule), `${d.name} breaks a rule of the catalog`);
    t.ok(d.request || d.around || d.response || d.deadline || d.routes, `${d.name} has an edge`);
    t.match(d.name, /^[a-z0-9]+(-[a-z0-9]+)*$/, `${d.name} is kebab-case`);
  }
  for (const area of DEFECT_AREAS) t.ok(defects.some((d) => d.area === area), `area ${area} has a defect`);
});

t.test("names, globs and unknown names", async (t) => {
  t.equal(defectsNamed(["no-retry-after"])[0].rule, "ratelimit.retry-after");
  t.throws(() => defectsNamed(["no-such-defect"]), { code: "CPSIM_ERR_UNKNOWN_DEFECT", message: /did you mean/ });
  t.ok(selectDefects(["ratelimit.*"]).every((d) => d.rule.startsWith("ratelimit.")), "a glob over rule ids");
  t.ok(selectDefects(["graphql"]).length > 5, "an area name");
  t.same(selectDefects(["create-answers-200"]).map((d) => d.name), ["create-answers-200"]);
  t.equal(selectDefects([]).length, defects.length);
});

async function emulator(t: Test, names: string[]): Promise<EmulatorHandle> {
  const e = await startEmulator({ clock: "manual", defects: defectsNamed(names) });
  t.teardown(() => e.close());
  return e;
}

t.test("a clean emulator talks to its backend directly: nothing is wrapped", async (t) => {
  const backend = new PlatformBackend({ seed: 1 });
  const e = await startEmulator({ backend, defects: [] });
  t.teardown(() => e.close());
  t.equal(e.backend, backend);
});

t.test("edges over real HTTP: a header that goes missing, a status that changes, a limit not enforced", async (t) => {
  const clean = await emulator(t, []);
  const broken = await emulator(t, ["ratelimit-only-on-429", "create-answers-200", "run-limit-20mb"]);
  const get = (e: EmulatorHandle) => fetch(`${e.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${ALPHA}` } });
  t.ok((await get(clean)).headers.get("ratelimit"), "clean: RateLimit on a 200");
  const res = await get(broken);
  t.equal(res.status, 200);
  t.equal(res.headers.get("ratelimit"), null, "defect: no RateLimit on a 200");
  const create = await fetch(`${broken.baseUrl}/v2/pods`, {
    method: "POST",
    headers: { authorization: `Bearer ${ALPHA}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "x", image: "ubuntu:22.04", gpu: { id: "NVIDIA GeForce RTX 4090" } }),
  });
  t.equal(create.status, 200, "defect: createPod answers 200");
  t.equal(((await create.json()) as { status: string }).status, "PROVISIONING", "the pod itself is the model's");
  const big = JSON.stringify({ input: { blob: "x".repeat(11 * 1024 * 1024) } });
  const run = (e: EmulatorHandle) =>
    fetch(`${e.serverlessUrl}/v2/conformance/run`, { method: "POST", headers: { authorization: `Bearer ${ALPHA}`, "content-type": "application/json" }, body: big });
  t.equal((await run(clean)).status, 413, "clean: an 11 MiB run is refused");
  t.not((await run(broken)).status, 413, "defect: an 11 MiB run is taken");
});

t.test("a defect that remembers: the RateLimit header never moves", async (t) => {
  const e = await emulator(t, ["ratelimit-never-moves"]);
  const get = async () => (await fetch(`${e.baseUrl}/v2/pods`, { headers: { authorization: `Bearer ${ALPHA}` } })).headers.get("ratelimit");
  const first = await get();
  t.equal(await get(), first);
  t.equal(await get(), first);
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => void out.push(s), stderr: (s: string) => void err.push(s) }, out, err };
}

t.test("cpsim serve --list-defects and --defect", async (t) => {
  const c = capture();
  t.equal(await createServeCommand().run(["--list-defects"], c.io), 0);
  const text = c.out.join("");
  t.match(text, /^create-accepts-empty-name {2}\[pods\.create\] {2}breaks pods\.create\.name-min-length$/m);
  t.match(text, /spec: {3}.+/);
  t.match(text, new RegExp(`${defects.length} defects\\n$`));
  const j = capture();
  t.equal(await createServeCommand().run(["--list-defects", "--json"], j.io), 0);
  const list = JSON.parse(j.out.join("")) as { name: string; rule: string; spec: string }[];
  t.equal(list.length, defects.length);
  t.equal(list.find((d) => d.name === "no-retry-after")?.spec, defectByName("no-retry-after") && rules.find((r) => r.id === "ratelimit.retry-after")?.spec);

  await t.rejects(createServeCommand().run(["--defect", "no-such-defect"], capture().io), /unknown defect "no-such-defect"/, "usage error");

  const s = capture();
  let handle: EmulatorHandle | undefined;
  let stop: () => void = () => {};
  const exit = createServeCommand({ onStopSignal: (fn) => ((stop = fn), () => {}), onListening: (e) => (handle = e) }).run(
    ["--defect", "no-retry-after", "--defect", "429-vague-detail", "--clock", "manual"],
    s.io,
  );
  while (!handle) await new Promise((r) => setTimeout(r, 10));
  t.match(s.err.join(""), /defects on, .*no-retry-after \(ratelimit\.retry-after\), 429-vague-detail/);
  t.not(handle.backend, undefined);
  stop();
  t.equal(await exit, 0);
});

t.test("a refusal mended and sent again: gpu without id takes the catalog's first GPU type", async (t) => {
  const body = JSON.stringify({ name: "x", image: "ubuntu:22.04", gpu: { count: 1 } });
  const create = (e: EmulatorHandle) =>
    fetch(`${e.baseUrl}/v2/pods`, { method: "POST", headers: { authorization: `Bearer ${ALPHA}`, "content-type": "application/json" }, body });
  const clean = await create(await emulator(t, []));
  t.equal(clean.status, 422, "clean: refused");
  const mended = await create(await emulator(t, ["create-default-gpu-type"]));
  t.equal(mended.status, 201, "defect: accepted");
  const pod = (await mended.json()) as { gpu: { id: string } };
  const gpus = (await (await fetch(`${(await emulator(t, [])).baseUrl}/v2/catalog/gpus`, { headers: { authorization: `Bearer ${ALPHA}` } })).json()) as { gpus: { id: string }[] };
  t.equal(pod.gpu.id, gpus.gpus[0].id, "with the catalog's first GPU type");
});
