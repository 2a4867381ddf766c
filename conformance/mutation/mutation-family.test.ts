// `cpsim mutation --family N`: the same defects against a target family (conformance/mutation/target-family.ts),
// scored per family. A file of its own: two whole-suite clean runs (the emulator's and the family's) beside
// mutation.test.ts's, which a loaded machine would not finish within one file's time limit.
import t from "tap";
import { run } from "./cli.ts";

t.setTimeout(600_000);
t.test("--family: the same defects against a target family, scored per family; no false failure on the family", async (t) => {
  const out: string[] = [];
  const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void out.push(s) };
  const code = await run(["--defect", "cost-when-exited", "--defect", "gpus-bare-array", "--family", "4", "--report-dir", t.testdir()], io);
  const text = out.join("");
  t.match(text, /family 4: lists bare, actions desired-status/, "the family's drawn conventions are printed");
  t.match(text, /^mutation_family=4 defects=2 caught=1 precise=1 escaped=1 clean_failures=0 \(escaped: gpus-bare-array\)$/m, "scored per family: a bare GPU list is no defect where lists are bare");
  t.equal(code, 0, "an escape on a family is reported, not failed; the emulator's run passes");
  await t.rejects(run(["--family", "0"], io), /--family must name/);
  await t.rejects(run(["--family", "x"], io), /--family takes whole numbers from 1 .*got "x"/);
});
