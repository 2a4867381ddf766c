// gpuTypes with lowestPrice from the live stock, and dataCenters with gpuAvailability.
import t from "tap";
import { STOCK_STATUSES } from "../schemas/index.ts";
import { ALPHA, RTX4090, catalog, checkRecord, gql, newPlatform } from "./test-support.ts";

const ALL_LOWEST = "uninterruptablePrice minimumBidPrice stockStatus availableGpuCounts gpuName gpuTypeId minMemory minVcpu";

t.test("every GPU type, with lowestPrice as the stock reports it, for each cloud and GPU count", async (t) => {
  const platform = newPlatform();
  for (const [secure, n] of [[null, 1], [true, 1], [false, 2], [true, 8], [null, 16]] as const) {
    const arg = secure === null ? `{gpuCount: ${n}}` : `{gpuCount: ${n}, secureCloud: ${secure}}`;
    const r = gql(platform, ALPHA, `{ gpuTypes { id displayName memoryInGb secureCloud communityCloud lowestPrice(input: ${arg}) { ${ALL_LOWEST} } } }`);
    t.equal(r.status, 200);
    const types = r.body.data!.gpuTypes as any[];
    t.same(types.map((g) => g.id), catalog.gpuTypes.map((g) => g.id), "catalog order");
    for (const g of types) {
      const live = platform.gpuStock.lowestPrice(g.id, { gpuCount: n, secureCloud: secure })!;
      t.same(
        { u: g.lowestPrice.uninterruptablePrice, b: g.lowestPrice.minimumBidPrice, s: g.lowestPrice.stockStatus, c: g.lowestPrice.availableGpuCounts },
        { u: live.uninterruptablePrice, b: live.minimumBidPrice, s: live.stockStatus, c: live.availableGpuCounts },
        `${g.id} ${arg}`,
      );
      t.ok((STOCK_STATUSES as readonly string[]).includes(g.lowestPrice.stockStatus), "High, Medium, Low or None");
      t.equal(g.lowestPrice.gpuTypeId, g.id);
      t.equal(g.lowestPrice.gpuName, g.displayName);
      // The record schema states uninterruptablePrice as a number: a cloud that does not offer the type answers null instead.
      if (g.lowestPrice.uninterruptablePrice !== null) checkRecord("GraphqlGpuType", g);
      if (n > 8) {
        t.equal(g.lowestPrice.stockStatus, "None", "more GPUs than any machine holds");
        t.same([g.lowestPrice.minVcpu, g.lowestPrice.minMemory], [null, null]);
      }
    }
  }
});

t.test("a cloud that does not offer the type: null prices, stockStatus None", async (t) => {
  const platform = newPlatform();
  const r = gql(platform, ALPHA, `{ gpuTypes(input: {id: "NVIDIA A40"}) { id communityCloud lowestPrice(input: {gpuCount: 1, secureCloud: false}) { uninterruptablePrice minimumBidPrice stockStatus availableGpuCounts } } }`);
  t.same(r.body.data!.gpuTypes, [{ id: "NVIDIA A40", communityCloud: false, lowestPrice: { uninterruptablePrice: null, minimumBidPrice: null, stockStatus: "None", availableGpuCounts: [] } }]);
});

t.test("stockStatus follows the stock: taking GPUs lowers it", async (t) => {
  const platform = newPlatform({ stock: { outsideIntensity: 0 } });
  const q = `{ gpuTypes(input: {id: "${RTX4090}"}) { lowestPrice(input: {gpuCount: 1}) { stockStatus availableGpuCounts } } }`;
  const before = gql(platform, ALPHA, q).body.data!.gpuTypes[0].lowestPrice;
  t.equal(before.stockStatus, "High");
  for (const h of platform.gpuStock.hostsOfType(RTX4090)) {
    const free = platform.gpuStock.free(h);
    if (free > 0) platform.gpuStock.acquireOnHost(h, free);
  }
  t.same(gql(platform, ALPHA, q).body.data!.gpuTypes[0].lowestPrice, { stockStatus: "None", availableGpuCounts: [] });
});

t.test("gpuTypes filters: id, ids, none", async (t) => {
  const platform = newPlatform();
  t.same(gql(platform, ALPHA, `{ gpuTypes(input: {ids: ["NVIDIA L4", "NVIDIA A40", "nope"]}) { id } }`).body.data!.gpuTypes, [{ id: "NVIDIA A40" }, { id: "NVIDIA L4" }]);
  t.equal(gql(platform, ALPHA, `{ gpuTypes(input: {}) { id } }`).body.data!.gpuTypes.length, catalog.gpuTypes.length);
  const bad = gql(platform, ALPHA, `{ gpuTypes(input: {id: "${RTX4090}"}) { id lowestPrice(input: {gpuCount: 0}) { stockStatus } } }`);
  t.equal(bad.status, 200);
  t.same(bad.body.data, { gpuTypes: [{ id: RTX4090, lowestPrice: null }] }, "a field error leaves the rest of the answer");
  t.equal(bad.body.errors![0]!.extensions.code, "BAD_USER_INPUT");
  t.same((bad.body.errors![0] as any).path, ["gpuTypes", 0, "lowestPrice"]);
  const noInput = gql(platform, ALPHA, `{ gpuTypes(input: {id: "${RTX4090}"}) { lowestPrice { stockStatus } } }`);
  t.equal(noInput.body.data!.gpuTypes[0].lowestPrice.stockStatus, platform.gpuStock.lowestPrice(RTX4090)!.stockStatus, "no input: one GPU, both clouds");
});

t.test("dataCenters { id name location gpuAvailability }", async (t) => {
  const platform = newPlatform();
  const r = gql(platform, ALPHA, "{ dataCenters { id name location globalNetwork gpuAvailability { gpuTypeId displayName stockStatus available } } }");
  t.equal(r.status, 200);
  const dcs = r.body.data!.dataCenters as any[];
  t.same(dcs.map((d) => d.id), catalog.dataCenters.map((d) => d.id));
  for (const dc of dcs) {
    const fixture = catalog.dataCenters.find((d) => d.id === dc.id)!;
    t.same([dc.name, dc.location, dc.globalNetwork], [fixture.name, fixture.location, fixture.globalNetwork]);
    const live = platform.gpuStock.gpuAvailability(dc.id);
    t.same(dc.gpuAvailability, live.map((a) => ({ ...a, available: a.stockStatus !== "None" })));
    for (const a of dc.gpuAvailability) t.ok((STOCK_STATUSES as readonly string[]).includes(a.stockStatus));
  }
  t.ok(dcs.some((d) => d.gpuAvailability.length > 0));
});
