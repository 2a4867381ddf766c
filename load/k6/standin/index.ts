/**
 * A minimal stand-in of the k6 modules the exported scripts import, so their functions run in
 * Node against a real target (k6 itself is not installable on every machine): `standinModules`
 * maps each k6 import to the file that replaces it.
 */
import { fileURLToPath } from "node:url";
import { siblingModule } from "../../../sim/package-root.ts";

export const standinModules: Record<string, string> = {
  "k6/http": siblingModule(import.meta.url, "./http").href,
  "k6/execution": siblingModule(import.meta.url, "./execution").href,
  "k6/metrics": siblingModule(import.meta.url, "./metrics").href,
  k6: siblingModule(import.meta.url, "./k6").href,
};

/** Rewrites a script's k6 imports to the stand-in; an import it does not know is an error. */
export function withStandin(script: string): string {
  return script.replace(/from "(k6[^"]*)"/g, (_, spec: string) => {
    const to = standinModules[spec];
    if (!to) throw new Error(`the k6 stand-in has no module ${spec}; add it to ${fileURLToPath(import.meta.url)}`);
    return `from ${JSON.stringify(to)}`;
  });
}

export { standin } from "./recorder.ts";
export { closeSyncHttp } from "./sync-http.ts";
