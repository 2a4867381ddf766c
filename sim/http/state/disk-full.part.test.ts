// A full disk (a write that fails with ENOSPC while a marker file exists stands for it): changes are refused with
// 507 and a problem+json detail while reads, health and the clock keep answering; once the disk
// has room the journal catches up by itself, and nothing acknowledged is lost.
import t from "tap";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { FULL_MARKER, troubledDiskModule } from "./troubled-disk-writev.ts";
import { ALPHA, LOAD, pod, send, stateDir } from "./state-test-helpers.ts";

t.test("disk full: 507 for changes, reads go on, recovery by itself, nothing acknowledged lost", async (t) => {
  const dir = stateDir(t);
  const marker = join(dir, FULL_MARKER);
  const e = await startEmulator({ clock: "manual", seed: 4, state: dir, stateWriteModule: troubledDiskModule(import.meta.url) });
  const acked: string[] = [];
  const first = await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("before"));
  t.equal(first.status, 201);
  acked.push(first.body.id);

  writeFileSync(marker, "");
  // Applied to the model, its record cannot be written: its answer waits for the disk.
  const inFlight = send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("during"));
  while (e.stats().journal?.unavailable === undefined) await new Promise((r) => setImmediate(r));
  t.match(e.stats().journal?.unavailable, /the disk is full \(ENOSPC\)/);

  const refused = await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("refused"));
  t.equal(refused.status, 507);
  t.equal(refused.headers["content-type"], "application/problem+json");
  t.match(refused.body.detail, /disk is full.*refuses changes until it can keep them \(reads go on\)/);
  t.equal((await send(e.baseUrl, "POST", "/_sim/clock/advance", undefined, { ms: 1000 })).status, 507, "the control API's changes too");
  t.equal((await send(e.baseUrl, "GET", "/v2/pods", ALPHA)).status, 200, "reads go on");
  t.equal((await send(e.baseUrl, "GET", "/v2/conformance/health", LOAD)).status, 200, "health goes on");
  t.equal((await send(e.baseUrl, "GET", "/_sim/clock")).status, 200, "the clock goes on");

  rmSync(marker);
  const during = await inFlight;
  t.equal(during.status, 201, "the waiting change is answered once it is on disk");
  acked.push(during.body.id);
  t.equal(e.stats().journal?.unavailable, undefined, "available again, by itself");
  const after = await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("after"));
  t.equal(after.status, 201);
  acked.push(after.body.id);
  await e.close();

  const again = await startEmulator({ clock: "manual", seed: 4, state: dir });
  t.teardown(() => again.close());
  t.same(again.stateWarnings, [], "no torn record: the retry wrote over the half line");
  const pods = ((await send(again.baseUrl, "GET", "/v2/pods", ALPHA)).body.pods as { id: string; name: string }[]).map((p) => p.name).sort();
  t.same(pods, ["after", "before", "during"], "every acknowledged change, not the refused one");
});
