// Worker threads do not inherit the tsx loader of a process started from the TypeScript sources:
// register it in this thread, then load the canary. Used only when running from sources.
import { register } from "tsx/esm/api";

register();
await import("./canary-thread.ts");
