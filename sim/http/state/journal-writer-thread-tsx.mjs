// Worker threads do not inherit the tsx loader of a process started from the TypeScript sources:
// register it in this thread, then load the writer. Used only when running from sources (state-journal.ts).
import { register } from "tsx/esm/api";

register();
await import("./journal-writer-thread.ts");
