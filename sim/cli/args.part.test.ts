import t from "tap";
import { parseArgs, renderHelp, UsageError, type CommandSpec } from "./args.ts";

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
});
