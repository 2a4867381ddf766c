/** Relative links of a Markdown page that lead nowhere: a missing file, or an anchor no heading makes. */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
export function slug(heading: string): string {
  return heading.trim().toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, "").replace(/ /g, "-");
}

function withoutCode(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "");
}

export function anchorsOf(text: string): Set<string> {
  return new Set(withoutCode(text).split("\n").filter((l) => /^#{1,6} /.test(l)).map((l) => slug(l.replace(/^#+ /, ""))));
}

/** Broken links of `file` (relative to root), as "target: why". */
export function brokenLinks(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const broken: string[] = [];
  for (const m of withoutCode(text).matchAll(/\]\(([^)\s]+)\)/g)) {
    const link = m[1];
    if (/^[a-z]+:/i.test(link)) continue;
    const [path, anchor] = link.split("#");
    const targetFile = path === "" ? file : normalize(join(dirname(file), path));
    if (!existsSync(join(root, targetFile))) {
      broken.push(`${link}: no file ${targetFile}`);
      continue;
    }
    if (anchor !== undefined && targetFile.endsWith(".md") && !anchorsOf(readFileSync(join(root, targetFile), "utf8")).has(anchor)) {
      broken.push(`${link}: no heading makes #${anchor} in ${targetFile}`);
    }
  }
  return broken;
}
