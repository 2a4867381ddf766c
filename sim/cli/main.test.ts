import t from "tap";
import { main } from "./main.ts";

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
