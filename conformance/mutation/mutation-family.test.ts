// `cpsim mutation --conventions SEED`: the same defects under a seed's conventions (sim/conventions/),
// scored per seed. A file of its own: two whole-suite clean runs (the emulator's and the seed's) beside
// mutation.test.ts's, which a loaded machine would not finish within one file's time limit.
import t from "tap";
import { describeConventions, drawConventions } from "../../sim/conventions/index.ts";
import { run } from "./cli.ts";

t.setTimeout(900_000);
t.test("--conventions: the same defects under a seed's conventions, scored per seed; no false failure there", async (t) => {
  const out: string[] = [];
  const io = { stdout: (s: string) => void out.push(s), stderr: (s: string) => void out.push(s) };
  t.equal(drawConventions(3).lists, "bare", "seed 3 lists bare arrays");
  const code = await run(["--defect", "cost-when-exited", "--defect", "gpus-bare-array", "--conventions", "3", "--report-dir", t.testdir()], io);
  const text = out.join("");
  t.match(text, `conventions 3: ${describeConventions(drawConventions(3))}`, "the seed's drawn conventions are printed");
  t.match(text, /^mutation_conventions=3 defects=2 caught=1 precise=1 escaped=1 clean_failures=0 judged_escaped=0 legal_escaped=0 \(escaped: gpus-bare-array\)$/m, "scored per seed: a bare GPU list is no defect where lists are bare");
  t.match(text, /^escaped under the seeds' lenient profile, their rule strict-only \(caught under strict on the emulator's conventions\): gpus-bare-array$/m, "a defect whose rule only strict judges is named apart from the conventions' escapes");
  t.notMatch(text, /^escaped only under some conventions:/m, "no defect escapes for the seed's conventions alone");
  t.equal(code, 0, "an escape under a seed is reported, not failed; the emulator's run passes");
  await t.rejects(run(["--conventions", "0"], io), /--conventions must name/);
  await t.rejects(run(["--conventions", "x"], io), /--conventions takes seeds, whole numbers from 1 .*got "x"/);
  await t.rejects(run(["--family", "x"], io), /--conventions takes seeds/, "--family, its older name, the same");
});
