// Kept rather than structured-headers: that library reads RFC 9651 (Dates, Display Strings) and returns Integers and Decimals alike as numbers, so `r=1.0` would pass as a count; the suite judges RFC 8941 exactly. structured-fields-library.part.test.ts checks both agree everywhere else.
/**
 * RFC 8941 structured-field Lists, parsed strictly, and the two rate-limit headers built on them:
 *
 *     RateLimit: "minute";r=59;t=12, "hour";r=2999;t=1812
 *     RateLimit-Policy: "minute";q=60;w=60, "hour";q=3000;w=3600
 *
 * The syntax is checked exactly as RFC 8941 section 4.2 parses it (a conformance suite that
 * accepted a malformed header would pass a broken server); the meaning is read tolerantly:
 * members in any order, unknown parameters ignored, as the rate-limit draft asks of clients.
 */

export type BareItem =
  | { readonly type: "integer"; readonly value: number }
  | { readonly type: "decimal"; readonly value: number }
  | { readonly type: "string"; readonly value: string }
  | { readonly type: "token"; readonly value: string }
  | { readonly type: "bytes"; readonly value: Uint8Array }
  | { readonly type: "boolean"; readonly value: boolean };

/** Parameters in order of first appearance; a repeated key keeps its last value (RFC 8941 4.2.3.2). */
export type Parameters = readonly (readonly [string, BareItem])[];

export interface Item {
  readonly kind: "item";
  readonly value: BareItem;
  readonly params: Parameters;
}

export interface InnerList {
  readonly kind: "inner-list";
  readonly items: readonly Item[];
  readonly params: Parameters;
}

export type ListMember = Item | InnerList;

export class StructuredFieldError extends Error {
  override readonly name = "StructuredFieldError";
  readonly code = "CPSIM_ERR_STRUCTURED_FIELD";
  constructor(
    message: string,
    readonly input: string,
    readonly position: number,
  ) {
    super(`${message} at position ${position} of ${JSON.stringify(input)}`);
  }
}

// One character each; compared rather than matched by a regular expression, as the parser reads every header of every answer the proxy judges.
const isDigit = (c: string) => c >= "0" && c <= "9";
const isLcAlpha = (c: string) => c >= "a" && c <= "z";
const isAlpha = (c: string) => isLcAlpha(c) || (c >= "A" && c <= "Z");
const isKeyChar = (c: string) => isLcAlpha(c) || isDigit(c) || c === "_" || c === "-" || c === "." || c === "*";
const TOKEN_CHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z:/]/;
const BASE64_CHAR = /[A-Za-z0-9+/=]/;

class Parser {
  private at = 0;
  constructor(private readonly input: string) {}

  fail(message: string): never {
    throw new StructuredFieldError(message, this.input, this.at);
  }

  private peek(): string | undefined {
    return this.input[this.at];
  }

  private done(): boolean {
    return this.at >= this.input.length;
  }

  private skipSp(): void {
    while (this.peek() === " ") this.at++;
  }

  private skipOws(): void {
    while (this.peek() === " " || this.peek() === "\t") this.at++;
  }

  /** RFC 8941 4.2: leading and trailing SP only; anything else left over is an error. */
  list(): ListMember[] {
    this.skipSp();
    const members: ListMember[] = [];
    while (!this.done()) {
      members.push(this.peek() === "(" ? this.innerList() : this.item());
      this.skipOws();
      if (this.done()) break;
      if (this.input[this.at++] !== ",") {
        this.at--;
        this.fail("expected ',' between list members");
      }
      this.skipOws();
      if (this.done()) this.fail("trailing ',' after the last list member");
    }
    return members;
  }

  private innerList(): InnerList {
    this.at++; // "("
    const items: Item[] = [];
    for (;;) {
      this.skipSp();
      if (this.done()) this.fail("unterminated inner list");
      if (this.peek() === ")") {
        this.at++;
        return { kind: "inner-list", items, params: this.parameters() };
      }
      items.push(this.item());
      const c = this.peek();
      if (c !== " " && c !== ")") this.fail("expected ' ' or ')' in an inner list");
    }
  }

  item(): Item {
    const value = this.bareItem();
    return { kind: "item", value, params: this.parameters() };
  }

  private parameters(): Parameters {
    const params = new Map<string, BareItem>();
    while (this.peek() === ";") {
      this.at++;
      this.skipSp();
      const key = this.key();
      let value: BareItem = { type: "boolean", value: true };
      if (this.peek() === "=") {
        this.at++;
        value = this.bareItem();
      }
      params.set(key, value);
    }
    return [...params.entries()];
  }

  private key(): string {
    const c = this.peek();
    if (c === undefined || !(isLcAlpha(c) || c === "*")) this.fail("a parameter key must start with a lowercase letter or '*'");
    const start = this.at;
    while (!this.done() && isKeyChar(this.input[this.at])) this.at++;
    return this.input.slice(start, this.at);
  }

  private bareItem(): BareItem {
    const c = this.peek();
    if (c === undefined) this.fail("expected an item");
    if (c === "-" || isDigit(c)) return this.number();
    if (c === '"') return this.string();
    if (c === "*" || isAlpha(c)) return this.token();
    if (c === ":") return this.bytes();
    if (c === "?") return this.boolean();
    return this.fail(`unexpected character ${JSON.stringify(c)}`);
  }

  private number(): BareItem {
    const start = this.at;
    let sign = 1;
    if (this.peek() === "-") {
      sign = -1;
      this.at++;
    }
    if (this.done() || !isDigit(this.input[this.at])) this.fail("expected a digit");
    let digits = "";
    let decimal = false;
    while (!this.done()) {
      const c = this.input[this.at];
      if (isDigit(c)) digits += c;
      else if (c === "." && !decimal) {
        if (digits.length > 12) this.fail("a decimal has at most 12 integer digits");
        digits += c;
        decimal = true;
      } else break;
      this.at++;
      if (!decimal && digits.length > 15) this.fail("an integer has at most 15 digits");
      if (decimal && digits.length > 16) this.fail("a decimal has at most 16 characters");
    }
    if (!decimal) return { type: "integer", value: sign * Number(digits) };
    const fraction = digits.length - digits.indexOf(".") - 1;
    if (fraction === 0) this.fail("a decimal needs a digit after '.'");
    if (fraction > 3) {
      this.at = start;
      this.fail("a decimal has at most 3 fractional digits");
    }
    return { type: "decimal", value: sign * Number(digits) };
  }

  private string(): BareItem {
    this.at++; // opening quote
    let out = "";
    for (;;) {
      if (this.done()) this.fail("unterminated string");
      const c = this.input[this.at++];
      if (c === "\\") {
        if (this.done()) this.fail("unterminated escape in a string");
        const next = this.input[this.at++];
        if (next !== '"' && next !== "\\") this.fail("only '\\\"' and '\\\\' may be escaped in a string");
        out += next;
      } else if (c === '"') return { type: "string", value: out };
      else {
        const code = c.charCodeAt(0);
        if (code < 0x20 || code > 0x7e) this.fail("a string holds printable ASCII only");
        out += c;
      }
    }
  }

  private token(): BareItem {
    const start = this.at;
    this.at++;
    while (!this.done() && TOKEN_CHAR.test(this.input[this.at])) this.at++;
    return { type: "token", value: this.input.slice(start, this.at) };
  }

  private bytes(): BareItem {
    this.at++;
    const start = this.at;
    while (!this.done() && this.peek() !== ":") {
      if (!BASE64_CHAR.test(this.input[this.at])) this.fail("invalid base64 in a byte sequence");
      this.at++;
    }
    if (this.done()) this.fail("unterminated byte sequence");
    const b64 = this.input.slice(start, this.at);
    this.at++;
    return { type: "bytes", value: new Uint8Array(Buffer.from(b64, "base64")) };
  }

  private boolean(): BareItem {
    this.at++;
    const c = this.input[this.at++];
    if (c === "1") return { type: "boolean", value: true };
    if (c === "0") return { type: "boolean", value: false };
    this.at--;
    return this.fail("a boolean is ?0 or ?1");
  }
}

/** Parses a List field value; throws StructuredFieldError naming the position of the first fault. */
export function parseList(input: string): ListMember[] {
  return new Parser(input).list();
}

function serializeBareItem(item: BareItem): string {
  switch (item.type) {
    case "integer":
      if (!Number.isInteger(item.value) || Math.abs(item.value) > 999_999_999_999_999) throw new RangeError(`not a structured-field integer: ${item.value}`);
      return String(item.value);
    case "decimal": {
      const rounded = Math.round(item.value * 1000) / 1000;
      if (Math.abs(Math.trunc(rounded)) > 999_999_999_999) throw new RangeError(`not a structured-field decimal: ${item.value}`);
      const text = rounded.toFixed(3).replace(/0{1,2}$/, "");
      return text === "-0.0" ? "0.0" : text;
    }
    case "string":
      if (/[^\x20-\x7e]/.test(item.value)) throw new RangeError("a structured-field string holds printable ASCII only");
      return `"${item.value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
    case "token":
      if (!/^[A-Za-z*][!#$%&'*+\-.^_`|~0-9A-Za-z:/]*$/.test(item.value)) throw new RangeError(`not a token: ${item.value}`);
      return item.value;
    case "bytes":
      return `:${Buffer.from(item.value).toString("base64")}:`;
    case "boolean":
      return item.value ? "?1" : "?0";
  }
}

function serializeParams(params: Parameters): string {
  return params.map(([k, v]) => (v.type === "boolean" && v.value ? `;${k}` : `;${k}=${serializeBareItem(v)}`)).join("");
}

function serializeItem(item: Item): string {
  return serializeBareItem(item.value) + serializeParams(item.params);
}

/** Serializes a List as RFC 8941 section 4.1 does; parseList(serializeList(x)) equals x. */
export function serializeList(members: readonly ListMember[]): string {
  return members
    .map((m) => (m.kind === "item" ? serializeItem(m) : `(${m.items.map(serializeItem).join(" ")})${serializeParams(m.params)}`))
    .join(", ");
}

/** The value of parameter `key`, if present. */
export function param(params: Parameters, key: string): BareItem | undefined {
  return params.find(([k]) => k === key)?.[1];
}
