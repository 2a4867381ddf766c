import t from "tap";
import { usageLine } from "./args.ts";
import { commands, main } from "./main.ts";

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: (s: string) => out.push(s), stderr: (s: string) => err.push(s) }, out, err };
}

t.test("--help lists commands and exits 0", async (t) => {
  const c = capture();
  t.equal(await main(["--help"], c.io), 0);
  t.match(c.out.join(""), /Usage: cpsim COMMAND/);
});

t.test("--version prints the package version", async (t) => {
  const c = capture();
  t.equal(await main(["--version"], c.io), 0);
  t.match(c.out.join(""), /^\d+\.\d+\.\d+\n$/);
});

t.test("unknown command exits 2 with a hint", async (t) => {
  const c = capture();
  t.equal(await main(["frobnicate"], c.io), 2);
  t.match(c.err.join(""), /unknown command "frobnicate".*cpsim --help/);
});

t.test("--help and --version take no argument: exit 2, not a silent answer", async (t) => {
  for (const argv of [["--version", "extra"], ["--help", "conform"], ["-h", "x"]]) {
    const c = capture();
    t.equal(await main(argv, c.io), 2, argv.join(" "));
    t.match(c.err.join(""), new RegExp(`^cpsim: ${argv[0]} takes no argument, got "${argv[1]}"`));
    t.equal(c.out.join(""), "");
  }
});

t.test("unknown top-level option exits 2", async (t) => {
  const c = capture();
  t.equal(await main(["--frob"], c.io), 2);
  t.match(c.err.join(""), /unknown option "--frob"/);
});

t.test("no command prints the help to stderr and exits 2", async (t) => {
  const c = capture();
  t.equal(await main([], c.io), 2);
  t.equal(c.out.join(""), "");
  t.match(c.err.join(""), /Commands:/);
});

t.test("cpsim help COMMAND prints that command's help, as COMMAND --help does", async (t) => {
  for (const name of ["serve", "conform", "rules", "simulate"]) {
    const viaHelp = capture();
    const viaFlag = capture();
    t.equal(await main(["help", name], viaHelp.io), 0, name);
    t.equal(await main([name, "--help"], viaFlag.io), 0, name);
    t.match(viaHelp.out.join(""), new RegExp(`^cpsim ${name}: `), `${name}'s own help`);
    t.equal(viaHelp.out.join(""), viaFlag.out.join(""), name);
  }
  const c = capture();
  t.equal(await main(["help", "frobnicate"], c.io), 2);
  t.match(c.err.join(""), /unknown command "frobnicate"; the commands are .*serve/);
  const plain = capture();
  t.equal(await main(["help"], plain.io), 0, "help alone is the top-level help");
  t.match(plain.out.join(""), /Commands:/);
});

t.test("an internal error exits 70 with the stack, and the help documents 70", async (t) => {
  const { commands } = await import("./main.ts");
  const c = capture();
  const saved = commands.boom;
  commands.boom = { summary: "x", load: async () => ({ spec: { name: "boom", summary: "x", usage: "", flags: [] }, run: async () => { throw new Error("kaboom"); } }) };
  try {
    t.equal(await main(["boom"], c.io), 70);
  } finally {
    if (saved === undefined) delete commands.boom;
  }
  t.match(c.err.join(""), /cpsim boom: internal error: Error: kaboom\n\s+at /);
  const h = capture();
  await main(["--help"], h.io);
  t.match(h.out.join(""), /70\s+internal error/);
});

t.test("every command's help: a usage line naming every flag of its table, and its own exit codes", async (t) => {
  // Read from the tables themselves, so a flag any command gains later is held to the same rule.
  for (const [name, entry] of Object.entries(commands)) {
    if (name === "boom") continue;
    const { spec } = await entry.load();
    const c = capture();
    t.equal(await main([name, "--help"], c.io), 0, name);
    const help = c.out.join("");
    const usage = help.slice(help.indexOf("Usage: "), help.indexOf("\n\n", help.indexOf("Usage: ")));
    t.equal(usage, `Usage: ${usageLine(spec)}`, `${name}: the usage shown is the generated one`);
    for (const f of spec.flags) t.match(usage, new RegExp(`--(no-)?${f.name}(?![\\w-])`), `${name}: the usage line names --${f.name}`);
    for (const line of usage.split("\n")) t.ok(line.length <= 100, `${name}: usage lines fit 100 columns: ${line}`);
    t.match(help, /\nExit codes:\n  0 /, `${name}: exit codes`);
    t.match(help, new RegExp(`^cpsim ${name}: [a-z]`), `${name}: its summary starts in lower case, as the command list's do`);
  }
  const proxy = capture();
  await main(["proxy", "--help"], proxy.io);
  t.match(proxy.out.join(""), /\n  2   usage or configuration error \(a --target that accepts no connection/, "proxy: its own exit codes");
  for (const name of ["serve", "rules"]) {
    const c = capture();
    await main([name, "--help"], c.io);
    t.notMatch(c.out.join(""), /failures found/, `${name} finds no failures: its help says what its codes mean`);
  }
});

t.test("simulate --list, plan --list and load --list print the bundled scenarios", async (t) => {
  for (const name of ["simulate", "plan"]) {
    const c = capture();
    t.equal(await main([name, "--list"], c.io), 0, name);
    const lines = c.out.join("").trim().split("\n");
    t.ok(lines.length >= 8, `${name}: every bundled scenario`);
    t.match(lines.find((l) => l.startsWith("mmc-queue ")), /^mmc-queue\s+M\/M\/8/, `${name}: name and description`);
  }
  const c = capture();
  t.equal(await main(["load", "--list"], c.io), 0);
  t.match(c.out.join(""), /^run-small\s+POST \/v2\/\{endpoint\}\/run/m);
  const e = capture();
  t.equal(await main(["simulate"], e.io), 2, "without --list, SCENARIO is still needed");
  t.match(e.err.join(""), /missing SCENARIO/);
});

t.test("--list --json prints one JSON array of {name, description}, and nothing else on stdout", async (t) => {
  for (const [name, first] of [["simulate", "bursty-batch"], ["plan", "bursty-batch"], ["load", "run-small"]] as const) {
    const c = capture();
    t.equal(await main([name, "--list", "--json"], c.io), 0, name);
    const list = JSON.parse(c.out.join("")) as Array<{ name: string; description: string }>;
    t.equal(list[0].name, first, `${name}: the first scenario`);
    t.ok(list.length >= 8 && list.every((e) => Object.keys(e).join() === "name,description" && e.description.length > 10), `${name}: every entry named and described`);
  }
});

t.test("an output folder that cannot be made is refused before the run: exit 2 naming the file in the way", async (t) => {
  const { writeFileSync } = await import("node:fs");
  const { join } = await import("node:path");
  const dir = t.testdir();
  const file = join(dir, "a-file");
  writeFileSync(file, "x");
  for (const argv of [
    ["conform", "--report-dir", file],
    ["conform", "--report-dir", join(file, "below")],
    ["conform", "--junit", join(file, "results.xml")],
    ["mutation", "--report-dir", file],
    ["plan", "default", "--out", file],
    ["plan", "--merge", dir, "--out", file],
    ["proxy", "--target", "http://127.0.0.1:1", "--max-duration", "1", "--report-dir", file],
    ["proxy", "--target", "http://127.0.0.1:1", "--max-duration", "1", "--junit", dir],
    ["load", "--report-dir", file],
    ["load", "--export-k6", file],
    ["load", "--out", `csv=${join(file, "x.csv")}`],
  ]) {
    const c = capture();
    t.equal(await main(argv, c.io), 2, argv.join(" "));
    const err = c.err.join("");
    t.match(err, /is a (file, not a folder|folder, not a file); choose another (folder|file)\n$/, `${argv.join(" ")}: says why`);
    t.notMatch(err, /internal error|\n\s+at /, `${argv.join(" ")}: no stack trace`);
    t.equal(c.out.join(""), "", `${argv.join(" ")}: nothing ran`);
  }
});

t.test("flags that cannot go together, or cannot be read, are usage errors quoting what was given", async (t) => {
  for (const [argv, message] of [
    [["plan", "default", "--json", "--csv"], /--json and --csv exclude each other/],
    [["rules", ""], /GLOB is empty/],
    [["load", "--scenario", ",", "--duration", "0.2", "--report-dir", t.testdir()], /--scenario "," names no scenario/],
    [["conform", "--only", ","], /--only "," names no rule glob/],
    [["conform", "--skip", " ", "--report-dir", t.testdir()], /--skip " " names no rule glob/],
    [["mutation", "--conventions", "abc"], /--conventions takes seeds, whole numbers from 1 .*got "abc"/],
    [["mutation", "--family", "1,,2"], /got ""/],
    [["proxy", "--target", "http://127.0.0.1:1", "--max-duration", "1", "--serverless-port", "0"], /--serverless-port needs --serverless-url/],
    [["proxy", "--target", "http://127.0.0.1:1", "--max-duration", "1", "--serverless-url", "http://127.0.0.1:2", "--serverless-port", "0", "--serverless-prefix", "/s"], /--serverless-port .* or --serverless-prefix .*not both/],
  ] as const) {
    const c = capture();
    t.equal(await main([...argv], c.io), 2, argv.join(" "));
    t.match(c.err.join(""), message, argv.join(" "));
    t.equal(c.out.join(""), "", `${argv.join(" ")}: nothing on stdout`);
  }
});
