/**
 * Where a JSON text stops being JSON. Node 20's `JSON.parse` messages give a position only for
 * some errors ("Unexpected token '}', ... is not valid JSON" has none), and a fixture author
 * needs a line and column, so this small scanner re-reads the text after a failed parse and
 * returns the offset of the first character that cannot continue it (the text's length when
 * it ends too early). It follows RFC 8259 exactly and returns undefined for valid JSON.
 */

const WS = new Set([" ", "\t", "\n", "\r"]);

class Stop {
  constructor(readonly offset: number) {}
}

export function jsonErrorOffset(text: string): number | undefined {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const ws = (): void => {
    while (i < text.length && WS.has(text[i])) i++;
  };
  const expect = (c: string): void => {
    if (text[i] !== c) fail();
    i++;
  };
  const digits = (): void => {
    if (!/[0-9]/.test(text[i] ?? "")) fail();
    while (/[0-9]/.test(text[i] ?? "")) i++;
  };
  const number = (): void => {
    if (text[i] === "-") i++;
    if (text[i] === "0") i++;
    else digits();
    if (text[i] === ".") {
      i++;
      digits();
    }
    if (text[i] === "e" || text[i] === "E") {
      i++;
      if (text[i] === "+" || text[i] === "-") i++;
      digits();
    }
  };
  const string = (): void => {
    expect('"');
    for (;;) {
      if (i >= text.length) fail();
      const c = text[i];
      if (c === '"') {
        i++;
        return;
      }
      if (c < " ") fail();
      if (c === "\\") {
        i++;
        const e = text[i];
        if (e === "u") {
          i++;
          for (let k = 0; k < 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i] ?? "")) fail();
            i++;
          }
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++;
        else fail();
      } else i++;
    }
  };
  const word = (w: string): void => {
    for (const c of w) expect(c);
  };
  const value = (): void => {
    ws();
    const c = text[i];
    if (c === "{") {
      i++;
      ws();
      if (text[i] === "}") {
        i++;
        return;
      }
      for (;;) {
        ws();
        string();
        ws();
        expect(":");
        value();
        ws();
        if (text[i] === ",") i++;
        else return expect("}");
      }
    }
    if (c === "[") {
      i++;
      ws();
      if (text[i] === "]") {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ",") i++;
        else return expect("]");
      }
    }
    if (c === '"') return string();
    if (c === "t") return word("true");
    if (c === "f") return word("false");
    if (c === "n") return word("null");
    if (c === "-" || /[0-9]/.test(c ?? "")) return number();
    fail();
  };
  try {
    value();
    ws();
    if (i < text.length) fail();
    return undefined;
  } catch (e) {
    if (e instanceof Stop) return e.offset;
    throw e;
  }
}

/** 1-based line and column of an offset; a column counts UTF-16 code units, as editors mostly do. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  const column = offset - (before.lastIndexOf("\n") + 1) + 1;
  return { line, column };
}
