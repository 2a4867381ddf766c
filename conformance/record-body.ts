/**
 * Describes a request body for a recording. A body up to `inlineLimit` characters is kept as it
 * is. A larger one, which in this suite is almost always padding for a payload-limit check, is
 * kept as literal text around runs of one repeated character, so the report stays small and the
 * curl script can regenerate the exact bytes; only a large body without such runs is cut.
 */
import type { BodyPart, RecordedBody } from "../reports/conformance-report.ts";

export const DEFAULT_INLINE_LIMIT = 16 * 1024;
/** Runs shorter than this stay literal: describing them would cost more than it saves. */
const MIN_RUN = 64;

export function recordBody(text: string, inlineLimit = DEFAULT_INLINE_LIMIT): RecordedBody {
  if (text.length <= inlineLimit) return { kind: "text", text };
  const size = Buffer.byteLength(text);
  const parts: BodyPart[] = [];
  let literal = "";
  let literalTotal = 0;
  let i = 0;
  while (i < text.length) {
    const cp = text.codePointAt(i) as number;
    const char = String.fromCodePoint(cp);
    let j = i + char.length;
    if (char.length === 1) {
      // The common case (ASCII padding): compare code units, not substrings.
      const unit = text.charCodeAt(i);
      while (j < text.length && text.charCodeAt(j) === unit) j++;
    } else {
      while (text.startsWith(char, j)) j += char.length;
    }
    const count = (j - i) / char.length;
    if (count >= MIN_RUN) {
      if (literal) parts.push({ text: literal });
      literal = "";
      parts.push({ char, count });
    } else {
      const chunk = text.slice(i, j);
      literal += chunk;
      literalTotal += chunk.length;
      if (literalTotal > inlineLimit) return { kind: "truncated", size, head: text.slice(0, inlineLimit) };
    }
    i = j;
  }
  if (literal) parts.push({ text: literal });
  return { kind: "runs", size, parts };
}

/** The exact text a recorded body stands for, or undefined when it was cut. */
export function bodyText(body: RecordedBody): string | undefined {
  switch (body.kind) {
    case "text":
      return body.text;
    case "runs":
      return body.parts.map((p) => ("text" in p ? p.text : p.char.repeat(p.count))).join("");
    case "truncated":
      return undefined;
  }
}
