// One owner per --state DIR: a second server exits 2 naming the first; the lock goes with a
// clean stop; a lock left by a killed process is taken over.
import t from "tap";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { LOCK_FILE, StateLock, processStart } from "./state-lock.ts";
import { serveChild, stateDir } from "./state-test-helpers.ts";

t.test("a second server on the same DIR exits 2 naming the owner; a clean stop frees it", async (t) => {
  const dir = stateDir(t);
  const first = await startEmulator({ clock: "manual", state: dir });
  t.ok(existsSync(join(dir, LOCK_FILE)));
  t.equal(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid, process.pid);
  await t.rejects(startEmulator({ clock: "manual", state: dir }), /in use by another cpsim serve/, "in-process: refused");
  const second = serveChild(["--state", dir, "--clock", "manual"]);
  const exit = await second.exited;
  t.equal(exit.code, 2);
  t.match(exit.stderr, new RegExp(`in use by another cpsim serve \\(pid ${process.pid} `));
  t.notMatch(exit.stderr, /\n\s+at /, "no stack trace");
  await first.close();
  t.notOk(existsSync(join(dir, LOCK_FILE)), "released on close");
  const third = await startEmulator({ clock: "manual", state: dir });
  await third.close();
});

t.test("a lock whose process is gone, or whose pid now belongs to another process, is stale", async (t) => {
  const dir = stateDir(t);
  // A pid that is not running (the kernel's pid_max is below 2^22 by default).
  writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: 4_194_000, start: "1", host: (await import("node:os")).hostname(), since: "then" }));
  const lock = StateLock.acquire(dir);
  t.equal(JSON.parse(readFileSync(join(dir, LOCK_FILE), "utf8")).pid, process.pid, "taken over");
  lock.release();
  if (processStart(process.pid) !== undefined) {
    // This very pid, but a start time that is not this process's: a reused pid.
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: process.pid, start: "12345", host: (await import("node:os")).hostname(), since: "then" }));
    StateLock.acquire(dir).release();
    t.pass("a reused pid is told apart by its start time");
  }
  writeFileSync(join(dir, LOCK_FILE), "");
  StateLock.acquire(dir).release();
  t.pass("an empty lock file (a crash between create and write) is stale");
});
