// Where a command's reports go is judged before its run: a file in the way, or under one, is named; a folder still to be made is fine.
import t from "tap";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { outputDirProblem, outputDirRefusal, outputFileProblem, outputFileRefusal } from "./output-dir.ts";

t.test("a folder that exists, or can be made, takes the reports; a file in the way is named", async (t) => {
  const dir = t.testdir();
  mkdirSync(join(dir, "there"));
  writeFileSync(join(dir, "a-file"), "x");
  t.equal(outputDirProblem(join(dir, "there")), undefined, "an existing folder");
  t.equal(outputDirProblem(join(dir, "not", "yet", "made")), undefined, "folders still to be made");
  t.equal(outputDirProblem(join(dir, "a-file")), `${join(dir, "a-file")} is a file, not a folder`);
  t.equal(outputDirProblem(join(dir, "a-file", "below", "more")), `${join(dir, "a-file")} is a file, not a folder`, "the file on the way is the one named");
  t.equal(outputFileProblem(join(dir, "new.xml")), undefined, "a new file in an existing folder");
  t.equal(outputFileProblem(join(dir, "deeper", "new.xml")), undefined, "a new file in a folder still to be made");
  t.equal(outputFileProblem(join(dir, "there")), `${join(dir, "there")} is a folder, not a file`);
  t.equal(outputFileProblem(join(dir, "a-file", "x.xml")), `${join(dir, "a-file")} is a file, not a folder`);
  t.equal(outputFileProblem(join(dir, "a-file")), undefined, "an existing file is overwritten");
  t.equal(outputDirRefusal("--out", join(dir, "there")), undefined);
  t.equal(outputDirRefusal("--out", join(dir, "a-file")), `--out ${join(dir, "a-file")}: ${join(dir, "a-file")} is a file, not a folder; choose another folder`);
  t.equal(outputFileRefusal("--junit", join(dir, "there"), "there"), `--junit there: ${join(dir, "there")} is a folder, not a file; choose another file`, "the file as given, the problem on the resolved path");
});
