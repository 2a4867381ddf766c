/**
 * Issue #31, item 5: a target that publishes its description only through an RFC 8631 `Link:
 * <...>; rel="service-desc"` header, in YAML, at a path nobody guesses, and hides every
 * convention of the emulator's (actions in the path, CPU flavors elsewhere with their counts as
 * sizes, volumes per data center, one 404 body for everything): discovery follows the link, and
 * the rules that need pod actions, network volumes and CPU counts are judged, not skipped.
 */
import t from "tap";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checks } from "../check-registry.ts";
import "../checks/pods/index.ts";
import { conform } from "../conform.ts";
import { discoverTarget } from "../discover-target.ts";
import { startDescribedTarget } from "../test-support/described-target.ts";

t.test("--discover follows the service-desc link to a YAML description and says where each fact came from", async (t) => {
  const target = await startDescribedTarget();
  t.teardown(() => target.stop());
  const err: string[] = [];
  const found = await discoverTarget({ target: target.rest, apiKey: target.keys.api }, { io: { stdout: () => {}, stderr: (s) => void err.push(s) } });
  const { facts } = found;
  t.equal(facts.podActionPath.value, "/v2/pods/{podId}/{action}");
  t.equal(facts.podActionPath.source, "openapi");
  t.match(facts.podActionPath.evidence, /\/v2\/pods\/\{podId\}\/\{action\} in \/description\.yaml, found through linked rel="service-desc" from the Link header of GET \//);
  t.same(facts.networkVolumes.value, { dataCenterPath: "/v2/datacenters/{dataCenterId}/volumes" });
  t.equal(facts.cpuCatalogPath.value, "/v2/compute/cpu-flavors");
  t.equal(facts.cpuCatalogPath.source, "openapi");
  t.match(err.join(""), /the API description: http:\/\/127\.0\.0\.1:\d+\/description\.yaml \(linked rel="service-desc"/, "stderr says where the description was found");
  t.match(found.profile, /"cpuCatalogPath": "\/v2\/compute\/cpu-flavors"/);
  t.match(found.profile, /cpuCatalogPath \(openapi: GET \/v2\/compute\/cpu-flavors in \/description\.yaml/, "the profile says where each fact came from");
  t.notOk(target.seen.some((s) => /openapi\.json/.test(s)) && facts.podActionPath.source !== "openapi");
});

const NEEDS = {
  actions: ["pods.cost-zero-when-stopped"],
  volumes: ["pods.create.network-volume-data-center", "pods.create.network-max-items", "pods.create.unknown-network-volume"],
  cpuCounts: ["pods.create.vcpu-valid-for-flavor", "pods.create.cpu-memory-derived", "pods.create.persistent-on-cpu"],
};

t.test("the rules that need pod actions, volumes and CPU counts are judged on it, without a failure", async (t) => {
  const target = await startDescribedTarget();
  t.teardown(() => target.stop());
  const only = Object.values(NEEDS).flat();
  const { report } = await conform(
    { target: target.rest, apiKey: target.keys.api, only, seed: 1, reportDir: mkdtempSync(join(tmpdir(), "cpsim-described-")) },
    { registry: checks },
  );
  t.same(report.rules.filter((r) => r.status === "fail").map((r) => `${r.id}: ${r.failures[0]?.evidence.expected}`), []);
  for (const [need, ids] of Object.entries(NEEDS)) {
    for (const id of ids) {
      const rule = report.rules.find((r) => r.id === id);
      t.equal(rule?.status, "pass", `${id} (needs ${need}) judged: ${rule?.reason ?? ""}`);
    }
  }
  t.ok(target.seen.some((s) => /^POST \/v2\/pods\/[^/]+\/(start|stop|restart)$/.test(s)), "pod actions were sent where the description says");
});

t.test("volumes linked from each data center (HAL `_links`), named nowhere else: found and used", async (t) => {
  const target = await startDescribedTarget({ volumes: "link" });
  t.teardown(() => target.stop());
  const found = await discoverTarget({ target: target.rest, apiKey: target.keys.api }, { io: { stdout: () => {}, stderr: () => {} } });
  t.same(found.facts.networkVolumes.value, { dataCenterLink: "volumes" });
  t.match(found.facts.networkVolumes.evidence, /link to their volumes \(relation "volumes"\)/);
  const { report } = await conform(
    { target: target.rest, apiKey: target.keys.api, only: NEEDS.volumes, seed: 1, reportDir: mkdtempSync(join(tmpdir(), "cpsim-described-")) },
    { registry: checks },
  );
  for (const id of NEEDS.volumes) t.equal(report.rules.find((r) => r.id === id)?.status, "pass", id);
  t.ok(target.seen.some((s) => /^GET \/v2\/datacenters\/[^/]+\/volumes$/.test(s)), "each data center's link was followed");
});
