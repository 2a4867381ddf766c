// Worker threads do not inherit the tsx loader of a process started from the TypeScript sources:
// register it in this thread, then load the task. Used only when running from sources (save-state.ts).
import { register } from "tsx/esm/api";

register();
const task = await import("./save-state-worker.ts");
export default task.default;
