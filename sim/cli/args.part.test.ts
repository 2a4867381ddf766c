import t from "tap";
import { parseArgs, renderHelp, reproduceCommand, usageLine, UsageError, type CommandSpec } from "./args.ts";
import { progressLine } from "./progress-line.ts";

const spec: CommandSpec = {
  name: "demo",
  summary: "a demo",
  usage: "cpsim demo [options] SCENARIO",
  positionals: [{ name: "SCENARIO", help: "scenario name", required: true }],
  flags: [
    { name: "seed", type: "integer", help: "seed", default: 1, min: 0 },
    { name: "hours", type: "number", help: "hours", min: 0 },
    { name: "json", type: "boolean", help: "json output" },
    { name: "profile", type: "enum", choices: ["lenient", "strict"], help: "profile", default: "lenient" },
    { name: "only", type: "string", help: "glob", multiple: true },
  ],
};

t.test("parses flags of every type, defaults and positionals", async (t) => {
  const p = parseArgs(spec, ["x", "--seed", "7", "--hours=1.5", "--json", "--only", "a.*", "--only=b.*"]);
  t.same(p.positionals, ["x"]);
  t.same(p.flags, { seed: 7, hours: 1.5, json: true, only: ["a.*", "b.*"], profile: "lenient" });
});

t.test("bad values and unknown flags raise UsageError naming the problem", async (t) => {
  t.throws(() => parseArgs(spec, ["x", "--seed", "1.5"]), { message: /--seed must be a whole number/ });
  t.throws(() => parseArgs(spec, ["x", "--seed", "-1"]), { message: /at least 0/ });
  t.throws(() => parseArgs(spec, ["x", "--profile", "loose"]), { message: /one of lenient, strict/ });
  t.throws(() => parseArgs(spec, ["x", "--sed", "1"]), { message: /did you mean "--seed"/ });
  t.throws(() => parseArgs(spec, ["x", "--seed"]), { message: /needs a value/ });
  t.throws(() => parseArgs(spec, []), { message: /missing SCENARIO/ });
  t.throws(() => parseArgs(spec, ["x", "y"]), { message: /unexpected argument "y"/ });
  t.throws(() => parseArgs(spec, ["x", "--seed", "1", "--seed", "2"]), UsageError);
});

t.test("help is rendered from the declaration", async (t) => {
  const text = renderHelp(spec);
  for (const f of spec.flags) t.match(text, `--${f.name}`);
  t.match(text, /Exit codes/);
  t.ok(parseArgs(spec, ["--help"]).help);
  t.match(text, /\n  --seed INTEGER {15}seed \(default: 1\)\n/, "a flag's help in the column after it");
  const wide = renderHelp({ ...spec, flags: [{ name: "fail-on", type: "enum", choices: ["error", "warning", "never"], help: "exit 1 on a finding this bad" }] });
  t.match(wide, /\n  --fail-on error\|warning\|never\n {31}exit 1 on a finding this bad\n/, "a flag wider than the column: its help on the next line, in the column");
});

t.test("the usage line: the spec's own, every flag it leaves out appended, wrapped at 100 columns", async (t) => {
  const line = usageLine({ ...spec, usage: "cpsim demo SCENARIO [--seed N] [--no-json]" });
  t.equal(line, "cpsim demo SCENARIO [--seed N] [--no-json] [--hours NUMBER] [--profile lenient|strict]\n                  [--only STRING]...");
  t.notMatch(line, /\[--json\]/, "--no-json names --json");
  const wide: CommandSpec = { ...spec, usage: "cpsim demo SCENARIO [--a [--b N]]", flags: Array.from({ length: 12 }, (_, i) => ({ name: `flag-number-${i}`, type: "string", value: "VALUE", help: "x" })) };
  const wrapped = usageLine(wide).split("\n");
  t.ok(wrapped.length > 1);
  for (const l of wrapped) t.ok(l.length + "Usage: ".length <= 100, l);
  t.match(wrapped[0], /^cpsim demo SCENARIO \[--a \[--b N\]\]/, "a bracketed group stays whole");
  t.match(wrapped[1], /^ {18}\[--flag-number-/, "continuation lines hang under the first argument (Usage: cpsim demo )");
  t.match(usageLine({ ...spec, usage: "cpsim demo X\n       cpsim demo --list", flags: [{ name: "list", type: "boolean", help: "l" }] }), /^cpsim demo X\n {7}cpsim demo --list$/, "a flag named by a later form is not appended");
});

t.test("exit codes per command; a flag that acts alone needs no positional", async (t) => {
  const text = renderHelp({ ...spec, exitCodes: [[0, "printed"], [2, "usage error"]] });
  t.match(text, /\nExit codes:\n  0   printed\n  2   usage error\n$/);
  t.match(renderHelp(spec), /Exit codes:\n  0   success\n  1   failures found\n  2   usage or configuration error\n$/, "the default table");
  const withList: CommandSpec = { ...spec, flags: [...spec.flags, { name: "list", type: "boolean", help: "l", alone: true }] };
  t.same(parseArgs(withList, ["--list"]).positionals, []);
  t.throws(() => parseArgs(withList, ["--json"]), { message: /missing SCENARIO/ });
});

t.test("reproduceCommand: the flags that differ from their defaults, in table order, quoted", async (t) => {
  const p = parseArgs(spec, ["my file.json", "--only", "a.*", "--json", "--hours", "2", "--profile", "strict"]);
  t.equal(reproduceCommand(spec, p), "npx cpsim demo 'my file.json' --hours 2 --json --profile strict --only 'a.*'");
  t.equal(reproduceCommand(spec, p, { omit: ["json", "only"], always: ["seed"] }), "npx cpsim demo 'my file.json' --seed 1 --hours 2 --profile strict");
  const sw: CommandSpec = { ...spec, flags: [{ name: "control", type: "boolean", help: "c", default: true }] };
  t.equal(reproduceCommand(sw, parseArgs(sw, ["x", "--no-control"])), "npx cpsim demo x --no-control");
  t.equal(reproduceCommand(spec, { flags: { only: ["it's"] }, positionals: [] }), "npx cpsim demo --only 'it'\\''s'");
});

t.test("progress: one line redrawn on a terminal, a line per whole percent elsewhere", async (t) => {
  for (const tty of [true, false]) {
    const err: string[] = [];
    const p = progressLine({ stdout: () => {}, stderr: (s) => err.push(s), stderrIsTTY: tty });
    for (let i = 0; i <= 200; i++) p.update(`step ${i}/200`, i / 2);
    p.done();
    const text = err.join("");
    if (tty) {
      t.equal(text.split("\r").length - 1, 201, "redrawn in place");
      t.ok(text.endsWith("step 200/200\n"), "ended with a newline");
    } else {
      t.notMatch(text, /\r/, "no carriage return off a terminal");
      t.equal(text.split("\n").length - 1, 101, "one line per whole percent: 0..100");
      t.match(text, /^step 0\/200\nstep 2\/200\n/);
    }
  }
});
