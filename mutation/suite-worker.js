// The piscina worker: plain JavaScript, because a worker thread loads TypeScript only once tsx is registered in it.
import { register } from "tsx/esm/api";

register();
const { runSuite } = await import("./run-suite.ts");

export default runSuite;
