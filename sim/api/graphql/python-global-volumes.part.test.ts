// Global volumes as the newest official Python client resolves them (runpod/apps/volume.py's
// VolumeResolver for a GlobalVolume mount: list_global_volumes, find by id or name, else
// create_global_volume(name)): create_global_volume's document exactly as
// runpod/api/mutations/apps.py defines it, the list as public code sends it to the real service
// (the client's own list document is not in the sources at hand), and that code's anonymous
// create document too; then the same over HTTP, and a `--state` session that replays.
import t from "tap";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { startEmulator } from "../../http/index.ts";
import { GLOBAL_VOLUME_LIMIT } from "../../domain/resources/index.ts";
import type { Principal } from "../op-context.ts";
import type { Platform } from "../../domain/platform.ts";
import * as D from "./python-apps-documents.ts";
import { ALPHA, ALPHA_READ, BETA, gql, newPlatform } from "./test-support.ts";

const { MUTATION_CREATE_GLOBAL_VOLUME, QUERY_GLOBAL_VOLUMES } = D;
/** The create document of public code that talks to the real service. */
const ANONYMOUS_CREATE = "mutation ($input: GlobalStoreBucketCreateInput!) { globalStoreBucketCreate(input: $input) { id name } }";

/** AppsApiClient._execute: the answer's `data`, or throws QueryError(errors[0].message). */
function execute(platform: Platform, who: Principal, query: string, variables?: Record<string, unknown>): Record<string, any> {
  const answer = gql(platform, who, query, variables);
  if (answer.body.errors) throw new Error(answer.body.errors[0]!.message);
  return answer.body.data!;
}

/** VolumeResolver.resolve for a GlobalVolume: find_by_id_or_name over the list, else create. */
function resolve(platform: Platform, who: Principal, reference: string): { id: string; created: boolean } {
  const listed: Array<{ id: string; name: string }> = execute(platform, who, QUERY_GLOBAL_VOLUMES).myself.globalStoreBuckets;
  const found = listed.filter((v) => v.id === reference || v.name === reference);
  if (found.length > 1) throw new Error(`several global volumes match ${reference}`);
  if (found[0]) return { id: found[0].id, created: false };
  return { id: execute(platform, who, MUTATION_CREATE_GLOBAL_VOLUME, { input: { name: reference } }).globalStoreBucketCreate.id, created: true };
}

t.test("list_global_volumes and create_global_volume, as the resolver uses them", async (t) => {
  const platform = newPlatform();
  t.same(execute(platform, ALPHA, QUERY_GLOBAL_VOLUMES), { myself: { globalStoreBuckets: [] } });
  const first = resolve(platform, ALPHA, "models");
  t.match(first, { id: /^[a-z0-9]{10}$/, created: true });
  t.same(resolve(platform, ALPHA, "models"), { id: first.id, created: false }, "found by name the second time");
  t.same(resolve(platform, ALPHA, first.id), { id: first.id, created: false }, "and by id");
  const listed = execute(platform, ALPHA, QUERY_GLOBAL_VOLUMES).myself.globalStoreBuckets;
  t.same(listed, [{ id: first.id, name: "models" }], "exactly the fields selected");
  const full = execute(platform, ALPHA, "{ myself { globalStoreBuckets { id name createdAt } } }").myself.globalStoreBuckets;
  t.match(full, [{ id: first.id, name: "models", createdAt: /^\d{4}-\d\d-\d\dT.*Z$/ }]);
  const other = execute(platform, ALPHA, ANONYMOUS_CREATE, { input: { name: "models-2f9c01ab" } }).globalStoreBucketCreate;
  t.same(Object.keys(other), ["id", "name"], "the anonymous form of the same mutation");

  // Account isolation: beta sees none of alpha's, and the same name is its own volume.
  t.same(execute(platform, BETA, QUERY_GLOBAL_VOLUMES).myself.globalStoreBuckets, []);
  const beta = resolve(platform, BETA, "models");
  t.ok(beta.created && beta.id !== first.id, "another account's volume of the same name is another volume");
  t.same(execute(platform, BETA, QUERY_GLOBAL_VOLUMES).myself.globalStoreBuckets, [{ id: beta.id, name: "models" }], "alpha's volume is not among beta's");
  t.same(execute(platform, ALPHA, QUERY_GLOBAL_VOLUMES).myself.globalStoreBuckets.map((v: { id: string }) => v.id), [first.id, other.id], "beta's volumes never show up in alpha's list");
});

t.test("refusals: names, duplicates, the limit, read-only keys, a missing name", async (t) => {
  const platform = newPlatform();
  const create = (name: unknown, who = ALPHA) => gql(platform, who, MUTATION_CREATE_GLOBAL_VOLUME, { input: { name } });
  for (const name of ["", " models", "a/b", "x".repeat(65), "-lead"]) {
    const answer = create(name);
    t.equal(answer.body.errors?.[0]?.extensions.code, "BAD_USER_INPUT", JSON.stringify(name));
    t.match(answer.body.errors?.[0]?.message, /globalStoreBucketCreate: A global volume's name .* must be 1-64 letters/);
  }
  t.equal(create("models").body.data?.globalStoreBucketCreate.name, "models");
  const again = create("models");
  t.equal(again.body.errors?.[0]?.extensions.code, "CONFLICT");
  t.match(again.body.errors?.[0]?.message, /already have a global volume named "models"/);
  const readOnly = create("other", ALPHA_READ);
  t.equal(readOnly.status, 403, "a read-only key changes nothing");
  t.same(execute(platform, ALPHA_READ, QUERY_GLOBAL_VOLUMES).myself.globalStoreBuckets.map((v: { name: string }) => v.name), ["models"], "but reads");
  t.match(gql(platform, ALPHA, MUTATION_CREATE_GLOBAL_VOLUME, { input: {} }).body.errors?.[0]?.message, /name/, "name is required");
  for (let i = 1; i < GLOBAL_VOLUME_LIMIT; i++) t.notOk(create(`v${i}`).body.errors, `v${i}`);
  const over = create("one-more");
  t.equal(over.body.errors?.[0]?.extensions.code, "CONFLICT");
  t.match(over.body.errors?.[0]?.message, new RegExp(`you hold ${GLOBAL_VOLUME_LIMIT} global volumes`));
  t.notOk(create("one-more", BETA).body.errors, "the limit is per account");
});

t.test("mounts: a task pod's volumeMounts and an endpoint's networkVolumeIds and volumes, as the newest client builds them", async (t) => {
  const platform = newPlatform();
  const global = resolve(platform, ALPHA, "models").id;
  const network = execute(platform, ALPHA, D.MUTATION_CREATE_NETWORK_VOLUME, { input: { name: "data", size: 50, dataCenterId: "US-TX-3" } }).createNetworkVolume.id;
  // attach_pod_mounts: volumeMounts with both kinds, dataCenterIds the network volume's.
  const mounts = [
    { volumeId: network, volumeType: "NETWORK_VOLUME", mountPath: "/data" },
    { volumeId: global, volumeType: "OBJECT_STORE_VOLUME", mountPath: "/models" },
  ];
  const task = { name: "task", imageName: "runpod/flash:py3.11", gpuTypeId: "NVIDIA GeForce RTX 4090", gpuCount: 1, cloudType: "SECURE", containerDiskInGb: 30, volumeMounts: mounts, dataCenterIds: ["US-TX-3"], env: [{ key: "RUNPOD_MOUNTS", value: "[]" }] };
  const pod = execute(platform, ALPHA, D.MUTATION_DEPLOY_POD, { input: task }).podFindAndDeployOnDemand;
  const record = platform.pods.get("acct-alpha", pod.id)!;
  t.same(record.mounts, { network: [{ volumeId: network, path: "/data" }] }, "the network volume is mounted where asked; the global one is checked, not mounted");
  t.equal(record.dataCenterId, "US-TX-3");
  const cpu = execute(platform, ALPHA, D.MUTATION_DEPLOY_CPU_POD, { input: { name: "cpu-task", imageName: "runpod/flash-cpu:py3.11", instanceId: "cpu3c-2-4", volumeMounts: [mounts[1]] } }).deployCpuPod;
  t.ok(platform.pods.get("acct-alpha", cpu.id), "a CPU task with a global volume");
  const refused = (input: object) => gql(platform, ALPHA, D.MUTATION_DEPLOY_POD, { input: { ...task, ...input } }).body.errors?.[0]?.message ?? "";
  t.match(refused({ volumeMounts: [{ ...mounts[1], volumeId: "nope" }] }), /volumeMounts\[0\]\.volumeId "nope" is not one of your global volumes/);
  t.match(gql(platform, BETA, D.MUTATION_DEPLOY_POD, { input: { ...task, volumeMounts: [mounts[1]], dataCenterIds: [] } }).body.errors?.[0]?.message, /not one of your global volumes/, "another account's global volume");
  t.match(refused({ volumeMounts: [{ ...mounts[0], mountPath: "data" }] }), /must be an absolute path/);
  t.match(refused({ volumeMounts: [mounts[0], { ...mounts[0], mountPath: "/other" }] }), /more than one NETWORK_VOLUME/);
  t.match(refused({ dataCenterIds: ["US-TX-3", "MARS-1"] }), /data center "MARS-1" is unknown/, "dataCenterIds is a preference list; an id nobody knows is refused");
  t.match(refused({ dataCenterIds: ["US-GA-1"] }), /is in US-TX-3, but dataCenterId is "US-GA-1"/, "the network volume's data center must be among them");
  t.match(refused({ volumeMounts: [{ ...mounts[0], volumeType: "TAPE" }] }), /VolumeType/, "the type is an enum");

  // attach_endpoint_volumes: networkVolumeIds [{networkVolumeId}], volumes [{volumeId, volumeType}] (both [] when none).
  const endpoint = (extra: object) => ({
    name: "api", workersMin: 0, workersMax: 1, gpuIds: "ADA_24", gpuCount: 1,
    template: { name: "api-template", imageName: "runpod/flash:py3.11", containerDiskInGb: 20, env: [{ key: "RUNPOD_MOUNTS", value: "[]" }] },
    ...extra,
  });
  const none = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: endpoint({ networkVolumeIds: [], volumes: [] }) }).saveEndpoint;
  t.same(platform.resources.endpointExtra(none.id)!.networkVolumeIds, [], "empty lists: no volumes");
  const both = execute(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: endpoint({ name: "api-2", template: { ...endpoint({}).template, name: "api-2-template" }, networkVolumeIds: [{ networkVolumeId: network }], volumes: [{ volumeId: global, volumeType: "OBJECT_STORE_VOLUME" }], locations: "US-TX-3" }) }).saveEndpoint;
  t.same(platform.resources.endpointExtra(both.id)!.networkVolumeIds, [network]);
  t.match(gql(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: endpoint({ name: "api-3", volumes: [{ volumeId: "nope", volumeType: "OBJECT_STORE_VOLUME" }] }) }).body.errors?.[0]?.message, /volumes\[0\]\.volumeId "nope" is not one of your global volumes/);
  t.match(gql(platform, ALPHA, D.MUTATION_SAVE_ENDPOINT, { input: endpoint({ name: "api-3", volumes: [{ volumeId: network, volumeType: "NETWORK_VOLUME" }] }) }).body.errors?.[0]?.message, /send network volumes in networkVolumeIds/);
});

t.test("over HTTP, and a --state session replays to the same volumes", async (t) => {
  const dir = mkdtempSync(join(tmpdir(), "cpsim-global-volumes-"));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const post = async (base: string, query: string, variables?: unknown) => {
    // run_graphql_query_async: POST {base}/graphql with the key as a Bearer token.
    const res = await request(`${base}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer cpsim_alpha_full_7f3a9c2e41b6d805" },
      body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
    });
    return (await res.body.json()) as { data?: any; errors?: unknown };
  };
  const first = await startEmulator({ clock: "manual", seed: 3, state: dir, logger: false });
  const made = await post(first.baseUrl, MUTATION_CREATE_GLOBAL_VOLUME, { input: { name: "weights" } });
  t.match(made, { data: { globalStoreBucketCreate: { id: /^[a-z0-9]{10}$/, name: "weights" } } });
  const before = await post(first.baseUrl, QUERY_GLOBAL_VOLUMES);
  await first.close();
  const second = await startEmulator({ clock: "manual", seed: 3, state: dir, logger: false });
  t.teardown(() => second.close());
  t.same(await post(second.baseUrl, QUERY_GLOBAL_VOLUMES), before, "the same id and name after a restart");
  t.same(before, { data: { myself: { globalStoreBuckets: [made.data.globalStoreBucketCreate] } } });
});
