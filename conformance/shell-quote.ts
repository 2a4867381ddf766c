// Kept rather than the shell-quote package: it leaves safe words bare and backslash-escapes ':' and '@' (http\://host), where these scripts promise people single-quoted literals; bash quoting is one replace.
/**
 * Bash quoting for the reproduction scripts. Literal text goes in single quotes, where bash
 * interprets nothing; the only variable references a script may expand are the ones it was
 * told about (key placeholders and captured ids), written as `"${NAME}"` between quoted pieces.
 */

/** Single-quotes `text` for bash: nothing inside is expanded, newlines included. */
export function quote(text: string): string {
  if (text === "") return "''";
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** `text` as one bash word: bare when it holds only characters bash takes literally, else quoted. */
export function quoteWord(text: string): string {
  return /^[A-Za-z0-9_./:@%+=,-]+$/.test(text) ? text : quote(text);
}

/**
 * Quotes `text` for bash, turning each `${NAME}` whose NAME is in `variables` into an expansion
 * and leaving every other character literal.
 */
export function quoteWithVariables(text: string, variables: ReadonlySet<string>): string {
  if (variables.size === 0) return quote(text);
  const names = [...variables].map((v) => v.replace(/[^A-Za-z0-9_]/g, "")).filter(Boolean);
  if (names.length === 0) return quote(text);
  const pattern = new RegExp(`\\$\\{(${names.join("|")})\\}`, "g");
  const pieces: string[] = [];
  let last = 0;
  for (const m of text.matchAll(pattern)) {
    const at = m.index ?? 0;
    if (at > last) pieces.push(quote(text.slice(last, at)));
    pieces.push(`"\${${m[1]}}"`);
    last = at + m[0].length;
  }
  if (last < text.length || pieces.length === 0) pieces.push(quote(text.slice(last)));
  return pieces.join("");
}

/** The variables of `variables` that `text` refers to. */
export function variablesIn(text: string, variables: ReadonlySet<string>): string[] {
  return [...variables].filter((v) => text.includes(`\${${v}}`));
}
