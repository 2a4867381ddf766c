// The journal is written on a thread of its own: a read answers while a change waits for a slow
// disk, and the change is answered once its record is on disk; if that thread dies, what waits is
// told so, changes are refused, reads go on, and the directory is released on close.
import t from "tap";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { DIES_MARKER, STALLED_MARKER, troubledDiskModule } from "./troubled-disk-writev.ts";
import { ALPHA, pod, send, stateDir } from "./state-test-helpers.ts";

const names = async (base: string) => ((await send(base, "GET", "/v2/pods", ALPHA)).body.pods as { name: string }[]).map((p) => p.name).sort();

t.test("a read answers while a change waits for a slow disk; the change is answered once written, and kept", async (t) => {
  const dir = stateDir(t);
  const e = await startEmulator({ clock: "manual", seed: 4, state: dir, stateWriteModule: troubledDiskModule(import.meta.url) });
  t.equal((await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("before"))).status, 201);

  writeFileSync(join(dir, STALLED_MARKER), "");
  let answered = false;
  const during = send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("during")).finally(() => (answered = true));
  // Reads answer while the record waits: they show the change once the model has it.
  let seen: string[] = [];
  for (let i = 0; i < 10_000 && !seen.includes("during"); i++) seen = await names(e.baseUrl);
  t.same(seen, ["before", "during"], "a read shows the change whose record is still on its way to disk");
  t.notOk(answered, "the change itself is not answered before its record is on disk");
  t.equal(e.stats().journal?.unavailable, undefined, "a slow disk is not a failed one");

  rmSync(join(dir, STALLED_MARKER));
  t.equal((await during).status, 201, "answered once written");
  await e.close();
  const again = await startEmulator({ clock: "manual", seed: 4, state: dir });
  t.teardown(() => again.close());
  t.same(await names(again.baseUrl), ["before", "during"]);
});

t.test("the journal's thread dies: the waiting change is told 503, changes are refused with 507, reads go on, close releases the directory", async (t) => {
  const dir = stateDir(t);
  const e = await startEmulator({ clock: "manual", seed: 4, state: dir, stateWriteModule: troubledDiskModule(import.meta.url) });
  t.equal((await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("before"))).status, 201);

  writeFileSync(join(dir, DIES_MARKER), "");
  const during = await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("during"));
  t.equal(during.status, 503);
  t.match(during.body.detail, /the state journal's writer stopped; this change may not survive a restart/);
  const refused = await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod("after"));
  t.equal(refused.status, 507);
  t.match(refused.body.detail, /writer stopped.*refuses changes/);
  t.equal((await send(e.baseUrl, "GET", "/v2/pods", ALPHA)).status, 200, "reads go on");
  await e.close();

  rmSync(join(dir, DIES_MARKER));
  const again = await startEmulator({ clock: "manual", seed: 4, state: dir });
  t.teardown(() => again.close());
  t.same(again.stateWarnings, []);
  t.same(await names(again.baseUrl), ["before"], "what was acknowledged is kept; the change told 503 was never written");
});
