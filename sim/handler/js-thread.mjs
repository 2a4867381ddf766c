// Plain JavaScript on purpose: piscina starts this file in worker threads, which do not inherit a
// TypeScript loader registered in the main thread; it registers tsx itself before loading a user's
// .ts handler. One task = one job; messages go back on the task's own MessagePort, in order:
// {type:"log",level,text}* {type:"chunk",json}* then {type:"result",json} or {type:"error",error}.
import { pathToFileURL } from "node:url";

let tsxRegistered = false;
const modules = new Map();
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

async function loadHandler(file, name = "default") {
  const key = `${file}\0${name}`;
  let fn = modules.get(key);
  if (fn !== undefined) return fn;
  if (/\.[cm]?tsx?$/.test(file) && !tsxRegistered) {
    const { register } = await import("tsx/esm/api");
    register();
    tsxRegistered = true;
  }
  const mod = await import(pathToFileURL(file).href);
  fn = mod[name];
  if (typeof fn !== "function") {
    const what = name === "default" ? "its default export" : `its export ${name}`;
    const example = name === "default" ? "export default function handler(job) {...}" : `export function ${name}(job) {...}`;
    throw new Error(`${file}: ${what} is ${fn === undefined ? "missing" : `a ${typeof fn}`}, not a handler function (${example})`);
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
