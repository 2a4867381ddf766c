/**
 * A JSON Schema as the expectation a reader can act on: `{type: "integer", minimum: 1}` reads
 * "integer >= 1". Messages describe the whole schema of the offending value rather than
 * repeating ajv's one-keyword message, so a fixture author sees every constraint at once.
 */

type Schema = Readonly<Record<string, unknown>>;

function isSchema(value: unknown): value is Schema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function numberBounds(s: Schema): string[] {
  const out: string[] = [];
  if (typeof s.minimum === "number") out.push(`>= ${s.minimum}`);
  if (typeof s.exclusiveMinimum === "number") out.push(`> ${s.exclusiveMinimum}`);
  if (typeof s.maximum === "number") out.push(`<= ${s.maximum}`);
  if (typeof s.exclusiveMaximum === "number") out.push(`< ${s.exclusiveMaximum}`);
  return out;
}

function stringBounds(s: Schema): string[] {
  const out: string[] = [];
  if (s.minLength === 1) out.push("non-empty");
  else if (typeof s.minLength === "number" && s.minLength > 1) out.push(`of at least ${s.minLength} characters`);
  if (typeof s.maxLength === "number") out.push(`of at most ${s.maxLength} characters`);
  if (typeof s.pattern === "string") out.push(`matching /${s.pattern}/`);
  return out;
}

function arrayBounds(s: Schema): string[] {
  const out: string[] = [];
  if (typeof s.minItems === "number" && s.minItems > 0) out.push(`with at least ${s.minItems} item${s.minItems === 1 ? "" : "s"}`);
  if (typeof s.maxItems === "number") out.push(`with at most ${s.maxItems} items`);
  if (s.uniqueItems === true) out.push("without duplicates");
  return out;
}

function describeType(type: string, s: Schema): string {
  switch (type) {
    case "integer":
    case "number":
      return [type, numberBounds(s).join(" and ")].filter((x) => x !== "").join(" ");
    case "string": {
      const bounds = stringBounds(s);
      // "non-empty string", "string matching /x/": the adjective reads before the noun.
      return bounds[0] === "non-empty" ? ["non-empty string", ...bounds.slice(1)].join(" ") : ["string", ...bounds].join(" ");
    }
    case "array": {
      const items = !isSchema(s.items) ? "" : Array.isArray(s.items.enum) ? ` of items ${describe(s.items)}` : ` of ${plural(describe(s.items))}`;
      return ["array" + items, ...arrayBounds(s)].join(" ");
    }
    case "object": {
      if (typeof s.title === "string") return `${s.title} object`;
      const required = Array.isArray(s.required) ? s.required.map((k) => JSON.stringify(k)) : [];
      return required.length === 0 ? "object" : `object with ${required.length === 1 ? "property" : "properties"} ${required.join(", ")}`;
    }
    default:
      return type;
  }
}

/** "Host object" -> "Host objects", "integer >= 1" -> "integers >= 1" (first word only). */
function plural(text: string): string {
  return text.replace(/^(.*?\b(?:object|string|integer|number|boolean|array))\b/, "$1s");
}

export function describe(schema: Schema): string {
  const values = schema.enum ?? ("const" in schema ? [schema.const] : undefined);
  if (Array.isArray(values)) {
    const list = values.map((v) => JSON.stringify(v));
    return list.length === 1 ? list[0] : `one of ${list.join(", ")}`;
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : typeof schema.type === "string" ? [schema.type] : [];
  if (types.length === 0) {
    if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
      return typeof schema.title === "string" ? `${schema.title} object` : "a value of one of the allowed shapes";
    }
    return "any value";
  }
  return types.map((t) => describeType(t, schema)).join(" or ");
}
