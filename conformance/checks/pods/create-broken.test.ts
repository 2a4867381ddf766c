/**
 * Broken platforms: the emulator with one behaviour broken (a wrapper around its backend). For
 * each, the suite must report the rule that behaviour breaks, with a curl reproduction that,
 * run by bash against the same server, shows the failure.
 */
import t from "tap";
import { execFile } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type { ApiRequest, ApiResponse } from "../../../sim/api/types.ts";
import { conform } from "../../conform.ts";
import { checks } from "../../check-registry.ts";
import type { Profile } from "../../options.ts";
import "./index.ts";
import { editResponse, isCreatePod, testTarget, type Breakage } from "../../test-support/pods/create-test-target.ts";

const run = promisify(execFile);
type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Obj) : {});

interface Case {
  readonly name: string;
  readonly rule: string;
  readonly breakage: Breakage;
  /** What the replayed script's output must contain. */
  readonly shows: RegExp;
  /** What the failing request must contain (the rule's evidence). */
  readonly request?: RegExp;
  readonly profile?: Profile;
}

/** Edits a createPod 2xx pod body. */
const editCreated = (edit: (pod: Obj, request: ApiRequest) => Obj): Breakage =>
  editResponse((request, response): ApiResponse =>
    isCreatePod(request) && response.status >= 200 && response.status < 300 ? { ...response, body: edit(obj(response.body), request) } : response,
  );

/** Edits a createPod request body before the model sees it. */
const editRequest = (edit: (body: Obj) => Obj): Breakage => (request, next) =>
  next(isCreatePod(request) ? { ...request, body: edit(obj(request.body)) } : request);

const cases: readonly Case[] = [
  {
    name: "createPod answers 200 instead of 201",
    rule: "pods.create.created-201",
    breakage: editResponse((request, response) => (isCreatePod(request) && response.status === 201 ? { ...response, status: 200 } : response)),
    shows: /HTTP\/1\.1 200/,
  },
  {
    name: "the created pod lacks startedAt",
    rule: "pods.create.response-required-fields",
    breakage: editCreated(({ startedAt: _dropped, ...pod }) => pod),
    shows: /HTTP\/1\.1 201[\s\S]*"createdAt"(?![\s\S]*"startedAt")/,
  },
  {
    name: "a created pod starts RUNNING",
    rule: "pods.create.status-provisioning",
    breakage: editCreated((pod) => ({ ...pod, status: "RUNNING" })),
    shows: /"status":"RUNNING"/,
  },
  {
    name: "cloud defaults to COMMUNITY",
    rule: "pods.create.default-cloud",
    breakage: editCreated((pod, request) => (obj(request.body).cloud === undefined ? { ...pod, cloud: "COMMUNITY" } : pod)),
    shows: /"cloud":"COMMUNITY"/,
    request: /^(?![\s\S]*"cloud")/,
  },
  {
    name: "a CPU pod's memory is off by one",
    rule: "pods.create.cpu-memory-derived",
    breakage: editCreated((pod) => (pod.cpu ? { ...pod, cpu: { ...obj(pod.cpu), memory: Number(obj(pod.cpu).memory) + 1 } } : pod)),
    shows: /"memory":\d+/,
  },
  {
    name: "unknown properties inside gpu are dropped instead of refused",
    rule: "pods.create.unknown-property",
    breakage: editRequest((body) => (body.gpu ? { ...body, gpu: { id: obj(body.gpu).id, ...(obj(body.gpu).count !== undefined ? { count: obj(body.gpu).count } : {}) } } : body)),
    shows: /HTTP\/1\.1 201/,
    request: /"gpu":\{[^}]*"(?!id"|count")[a-zA-Z0-9]+":/,
  },
  {
    name: "unknown properties inside a persistent mount are dropped instead of refused",
    rule: "pods.create.unknown-property",
    breakage: editRequest((body) => {
      const p = obj(obj(body.mounts).persistent);
      return p.size !== undefined ? { ...body, mounts: { persistent: { size: p.size, path: p.path } } } : body;
    }),
    shows: /HTTP\/1\.1 201/,
    request: /"persistent":\{[^}]*"(?!size"|path")[a-zA-Z0-9]+":/,
  },
  {
    name: "the GPU count asked for is ignored",
    rule: "pods.create.created-201",
    breakage: editCreated((pod) => (pod.gpu ? { ...pod, gpu: { ...obj(pod.gpu), count: 1 } } : pod)),
    shows: /HTTP\/1\.1 201/,
    request: /"count":([2-9]|\d\d)/,
  },
  {
    name: "disk 0 is taken as the default disk",
    rule: "pods.create.disk-minimum",
    breakage: editRequest((body) => (body.disk === 0 ? (({ disk: _d, ...rest }) => rest)(body) : body)),
    shows: /HTTP\/1\.1 201/,
    request: /"disk":0/,
  },
  {
    name: "both persistent and network mounts: the network one wins",
    rule: "pods.create.mounts-exclusive",
    breakage: editRequest((body) => {
      const mounts = obj(body.mounts);
      return mounts.persistent && mounts.network ? { ...body, mounts: { network: mounts.network } } : body;
    }),
    shows: /HTTP\/1\.1 201/,
  },
  {
    name: "validation errors are plain application/json",
    rule: "errors.problem-json",
    breakage: editResponse((request, response) =>
      isCreatePod(request) && response.status === 422 ? { ...response, headers: { ...response.headers, "content-type": "application/json" } } : response,
    ),
    shows: /HTTP\/1\.1 422[\s\S]*content-type: application\/json/i,
  },
  {
    name: "a 422 is titled Validation Error",
    rule: "errors.title-matches-status",
    breakage: editResponse((request, response) =>
      response.status === 422 ? { ...response, body: { ...obj(response.body), title: "Validation Error" } } : response,
    ),
    shows: /"title":"Validation Error"/,
  },
  {
    name: "a 401 carries status 400 in its body",
    rule: "errors.status-matches",
    breakage: editResponse((_request, response) => (response.status === 401 ? { ...response, body: { ...obj(response.body), status: 400 } } : response)),
    shows: /HTTP\/1\.1 401[\s\S]*"status":400/,
  },
  {
    name: "a data center that supports global networking says it does not",
    rule: "catalog.global-network-field",
    breakage: editResponse((request, response) => {
      if (request.path !== "/v2/catalog/datacenters") return response;
      const list = (obj(response.body).dataCenters as Obj[]).map((dc) => (dc.id === "US-TX-3" ? { ...dc, globalNetwork: false } : dc));
      return { ...response, body: { dataCenters: list } };
    }),
    shows: /"enabled":true/,
  },
];

for (const c of cases) {
  t.test(`${c.name}: ${c.rule} fails, and its curl script shows it`, async (t) => {
    const target = testTarget(c.breakage);
    try {
      const { report, exitCode } = await conform(
        { only: [c.rule], seed: 1, profile: c.profile ?? "lenient", reportDir: mkdtempSync(join(tmpdir(), "cpsim-pods-broken-")) },
        { registry: checks, startEmbedded: target.start },
      );
      t.equal(exitCode, 1, "the run fails");
      const result = report.rules.find((r) => r.id === c.rule);
      t.equal(result?.status, "fail", `${c.rule} fails${result?.status === "skip" ? ` (skipped: ${result.reason})` : ""}`);
      const failure = result?.failures[0];
      if (!failure) return;
      t.match(failure.evidence.expected, /\S/, "the failure says what the spec requires");
      if (c.request) t.match(failure.evidence.request.body && "text" in failure.evidence.request.body ? failure.evidence.request.body.text : "", c.request, "the evidence is the request that breaks the rule");
      const script = join(mkdtempSync(join(tmpdir(), "cpsim-curl-")), "repro.sh");
      writeFileSync(script, failure.reproduction.curl);
      const keys = target.target().keys ?? {};
      const { stdout } = await run("bash", [script], {
        env: { ...process.env, CPSIM_API_KEY: keys.api ?? "", CPSIM_RESTRICTED_API_KEY: keys.restricted ?? "", CPSIM_OTHER_API_KEY: keys.other ?? "" },
        timeout: 20_000,
      });
      t.match(stdout, c.shows, "replaying the script shows the failure");
    } finally {
      await target.stop();
    }
  });
}
