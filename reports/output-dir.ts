/**
 * Whether a folder can take a command's reports, asked before the run rather than found out after
 * it: a --report-dir (or --out) that is a file, or under one, or in a folder this process may not
 * write, is a configuration error (exit 2) saying so, not a stack trace once minutes of work are
 * done. Nothing is created here: the nearest existing folder on the path is the one checked.
 */
import { accessSync, constants, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Why `dir` cannot be made and written (a sentence), or undefined when it can. */
export function outputDirProblem(dir: string): string | undefined {
  let path = resolve(dir);
  for (;;) {
    let isDirectory: boolean;
    try {
      isDirectory = statSync(path).isDirectory();
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      const parent = dirname(path);
      // Missing (or a file on the way, found as we go up): look at the folder above.
      if ((code === "ENOENT" || code === "ENOTDIR") && parent !== path) {
        path = parent;
        continue;
      }
      return `${path} cannot be read (${code ?? (err as Error).message})`;
    }
    if (!isDirectory) return `${path} is a file, not a folder`;
    try {
      accessSync(path, constants.W_OK | constants.X_OK);
    } catch {
      return `the folder ${path} is not writable`;
    }
    return undefined;
  }
}

/** Why the file `file` cannot be written (a sentence), or undefined when it can: its folder as above, and not itself a folder. */
export function outputFileProblem(file: string): string | undefined {
  const path = resolve(file);
  try {
    if (statSync(path).isDirectory()) return `${path} is a folder, not a file`;
  } catch {
    // Missing is fine: it is about to be written.
  }
  return outputDirProblem(dirname(path));
}

/** The sentence a command refuses `flag dir` with, before any work ("--report-dir X: X is a file, not a folder; choose another folder"), or undefined when the folder will do. */
export function outputDirRefusal(flag: string, dir: string): string | undefined {
  const problem = outputDirProblem(dir);
  return problem === undefined ? undefined : `${flag} ${dir}: ${problem}; choose another folder`;
}

/** The same for a file: `shown` is the file as given (`file` may be it resolved). */
export function outputFileRefusal(flag: string, file: string, shown: string = file): string | undefined {
  const problem = outputFileProblem(file);
  return problem === undefined ? undefined : `${flag} ${shown}: ${problem}; choose another file`;
}
