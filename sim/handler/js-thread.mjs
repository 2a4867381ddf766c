// Plain JavaScript on purpose: piscina starts this file in worker threads, which do not inherit a
// TypeScript loader registered in the main thread; it loads a user's .ts handler through tsx's
// tsImport itself. One task = one job; messages go back on the task's own MessagePort, in order:
// {type:"log",level,text}* {type:"chunk",json}* then {type:"result",json} or {type:"error",error}.
import { pathToFileURL } from "node:url";

const modules = new Map();

// Node warns "To load an ES module, set "type": "module"..." when a file its package.json calls
// CommonJS has ESM syntax: for a .js handler tsx then loads it anyway, and for a .cjs one the load
// error says what to change, so the warning is noise on the user's terminal.
// Node prints warnings from a 'warning' listener of its own: it is wrapped to leave that one out.
const printers = process.listeners("warning");
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  if (typeof warning?.message === "string" && warning.message.startsWith("To load an ES module")) return;
  for (const print of printers) print(warning);
});

/** The port of the task running now: console output of the handler goes there. */
let currentPort;

for (const [method, level] of [["log", "INFO"], ["info", "INFO"], ["warn", "WARN"], ["error", "ERROR"], ["debug", "DEBUG"]]) {
  console[method] = (...args) => {
    const text = args.map((a) => (typeof a === "string" ? a : safeInspect(a))).join(" ");
    if (currentPort !== undefined) currentPort.postMessage({ type: "log", level, text });
    else process.stderr.write(`${text}\n`);
  };
}

function safeInspect(value) {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * The module of a handler file, wherever it is kept: TypeScript (.ts, .mts, .cts) goes through
 * tsx's tsImport, which loads this one file (and its imports) with a loader of its own, whatever
 * package.json says or lacks, and takes ESM or CommonJS syntax in any of them. tsx's global
 * register() is not used: with no package.json (or "type": "commonjs") it made Node require() the
 * file as CommonJS and refuse it as "ES Module ... in a cycle". JavaScript is imported as Node does
 * (.mjs is ESM, .cjs CommonJS, .js by package.json); a .js file whose syntax its package.json does
 * not expect (export in a "type": "commonjs" folder) goes through tsImport as well.
 */
async function importModule(file) {
  const url = pathToFileURL(file).href;
  if (/\.[cm]?ts$/i.test(file)) return tsImportOf(url);
  try {
    return await import(url);
  } catch (err) {
    if (/\.js$/i.test(file) && err instanceof SyntaxError && /\b(export|import)\b/.test(err.message)) return tsImportOf(url);
    throw err;
  }
}

async function tsImportOf(url) {
  const { tsImport } = await import("tsx/esm/api");
  return tsImport(url, import.meta.url);
}

/** Why a module failed to load, with the fix when its syntax and its file type disagree. */
function loadMessage(file, err) {
  const message = err instanceof Error ? err.message : String(err);
  if (message.includes("This file is being treated as an ES module")) return message;
  if (/\bmodule is not defined in ES module scope|\bexports is not defined in ES module scope|\brequire is not defined in ES module scope/.test(message)) {
    const why = /\.mjs$/i.test(file) ? "a .mjs file is an ES module" : 'the nearest package.json says "type": "module", which makes .js an ES module';
    return `${message}: ${why}; write export default function handler(job) {...}, or name the file .cjs to keep module.exports`;
  }
  if (/\.cjs$/i.test(file) && err instanceof SyntaxError && /\b(export|import)\b/.test(message)) {
    return `${message}: a .cjs file is CommonJS; write module.exports = function handler(job) {...}, or name the file .mjs to keep export default`;
  }
  return message;
}

/**
 * The handler function NAME of a loaded module. CommonJS (module.exports = fn, or a TypeScript file
 * compiled as CommonJS, whose ESM exports sit on module.exports) arrives as the default export:
 * its properties are looked at too.
 */
function pick(mod, name) {
  const direct = mod[name];
  if (typeof direct === "function") return direct;
  const cjs = mod.default;
  if (cjs !== null && typeof cjs === "object" && typeof cjs[name] === "function") return cjs[name];
  return direct;
}

async function loadHandler(file, name = "default") {
  const key = `${file}\0${name}`;
  let fn = modules.get(key);
  if (fn !== undefined) return fn;
  let mod;
  try {
    mod = await importModule(file);
  } catch (err) {
    throw new Error(loadMessage(file, err));
  }
  fn = pick(mod, name);
  if (typeof fn !== "function") {
    const what = name === "default" ? "its default export" : `its export ${name}`;
    const example = name === "default" ? "export default function handler(job) {...}, or module.exports = function handler(job) {...}" : `export function ${name}(job) {...}`;
    throw new Error(`${file}: ${what} is ${fn === undefined ? "missing" : fn === null ? "null" : `a ${typeof fn}`}, not a handler function (${example})`);
  }
  modules.set(key, fn);
  return fn;
}

function kindOf(fn) {
  const name = fn.constructor?.name;
  return name === "AsyncGeneratorFunction" || name === "GeneratorFunction";
}

function isIterator(value) {
  return value !== null && typeof value === "object" && (typeof value[Symbol.asyncIterator] === "function" || (typeof value.next === "function" && typeof value[Symbol.iterator] === "function"));
}

function toJson(value, what, maxBytes) {
  if (value === undefined) return undefined;
  const json = JSON.stringify(value);
  if (json === undefined) throw new Error(`the handler's ${what} is not JSON (${typeof value})`);
  if (json.length > maxBytes && Buffer.byteLength(json) > maxBytes) throw new Error(`the handler's ${what} is larger than ${maxBytes} bytes of JSON`);
  return json;
}

export default async function run(task) {
  if (task.probe === true) {
    const fn = await loadHandler(task.file, task.exportName);
    return { generator: kindOf(fn) };
  }
  const { file, exportName, job, port, maxOutputBytes } = task;
  currentPort = port;
  try {
    const fn = await loadHandler(file, exportName);
    let value = await fn({ id: job.id, input: job.input });
    if (isIterator(value)) {
      const outputs = [];
      for await (const out of value) {
        port.postMessage({ type: "chunk", json: toJson(out, "stream output", maxOutputBytes) });
        outputs.push(out);
      }
      value = outputs;
    }
    port.postMessage({ type: "result", json: toJson(value, "output", maxOutputBytes) });
  } catch (err) {
    const message = err instanceof Error ? err.message || err.name : String(err);
    port.postMessage({ type: "error", error: message, stack: err instanceof Error ? err.stack : undefined });
  } finally {
    currentPort = undefined;
    port.close();
  }
  return null;
}
