// Damage and bad setups end with exit 2 and a sentence, never a stack (exit 70): a file that is
// not a journal is left as it is; a complete record that fails its checksum stops the start,
// and --state-keep-prefix keeps the records before it (the rest copied aside).
import t, { type Test } from "tap";
import { chmodSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startEmulator } from "../emulator.ts";
import { JOURNAL_FILE } from "./state-journal.ts";
import { ALPHA, journalLines, pod, send, serveChild, stateDir } from "./state-test-helpers.ts";

async function refused(t: Test, args: string[], pattern: RegExp) {
  const run = serveChild(["--clock", "manual", ...args]);
  const exit = await run.exited;
  t.equal(exit.code, 2, `exit 2 for ${args.join(" ")}`);
  t.match(exit.stderr, pattern);
  t.notMatch(exit.stderr, /\n\s+at /, "no stack trace");
}

t.test("a file that is not a journal is named and never overwritten", async (t) => {
  const dir = stateDir(t);
  writeFileSync(join(dir, JOURNAL_FILE), "hello world");
  await refused(t, ["--state", dir], /is not a cpsim state journal .*it begins with "hello world"/);
  t.equal(readFileSync(join(dir, JOURNAL_FILE), "utf8"), "hello world", "left as it was");
  writeFileSync(join(dir, JOURNAL_FILE), "hello\nworld\n");
  await refused(t, ["--state", dir], /begins with "hello"/);
  t.equal(readFileSync(join(dir, JOURNAL_FILE), "utf8"), "hello\nworld\n");
});

t.test("a damaged complete record stops the start; --state-keep-prefix keeps what comes before it", async (t) => {
  const dir = stateDir(t);
  const e = await startEmulator({ clock: "manual", seed: 2, state: dir });
  const ids: string[] = [];
  for (let i = 0; i < 3; i++) ids.push((await send(e.baseUrl, "POST", "/v2/pods", ALPHA, pod(`p${i}`))).body.id);
  await e.close();
  const text = readFileSync(join(dir, JOURNAL_FILE), "utf8");
  const lines = text.split("\n");
  // The last pod's record, whole (it ends with a newline), one byte changed: not a torn write.
  lines[3] = lines[3]!.replace('"p2"', '"q2"');
  const damaged = lines.join("\n");
  writeFileSync(join(dir, JOURNAL_FILE), damaged);
  await refused(t, ["--state", dir], /record 3 \(at byte \d+\) is damaged.*--state-keep-prefix/s);
  t.equal(readFileSync(join(dir, JOURNAL_FILE), "utf8"), damaged, "nothing was changed");

  const kept = serveChild(["--clock", "manual", "--state", dir, "--state-keep-prefix"]);
  t.teardown(() => kept.child.kill("SIGKILL"));
  const base = await kept.ready;
  const listed = (await send(base, "GET", "/v2/pods", ALPHA)).body.pods as { id: string }[];
  t.same(listed.map((p) => p.id).sort(), ids.slice(0, 2).sort(), "the two pods before the damage");
  kept.child.kill("SIGTERM");
  const exit = await kept.exited;
  t.match(exit.stderr, /warning: .*record 3 .* is damaged; kept the 2 records before it/);
  t.equal(journalLines(dir).length, 3);
  const aside = readdirSync(dir).filter((f) => f.startsWith(`${JOURNAL_FILE}.damaged-`));
  t.equal(aside.length, 1, "the whole damaged journal was copied aside");
  t.equal(readFileSync(join(dir, aside[0]!), "utf8"), damaged);
});

t.test("bad --state setups exit 2 with a message", async (t) => {
  const dir = stateDir(t);
  writeFileSync(join(dir, "a-file"), "x");
  await refused(t, ["--state", join(dir, "a-file")], /a-file is a file, not a directory/);
  await refused(t, ["--state", join(dir, "a-file", "below")], /ENOTDIR|not a directory/);
  mkdirSync(join(dir, "j", JOURNAL_FILE), { recursive: true });
  await refused(t, ["--state", join(dir, "j")], /journal\.ndjson is a directory, not a journal/);
  await refused(t, ["--state-keep-prefix"], /--state-keep-prefix needs --state/);
  if (process.getuid?.() === 0) {
    // As root permissions do not hold; sysfs refuses new entries to everyone.
    await refused(t, ["--state", "/sys/kernel/cpsim-state-test"], /cannot create the --state directory: (permission denied|the file system is read-only)/);
  } else {
    const ro = join(dir, "read-only");
    mkdirSync(ro);
    chmodSync(ro, 0o555);
    t.teardown(() => chmodSync(ro, 0o755));
    await refused(t, ["--state", ro], /permission denied|read-only/);
  }
});
