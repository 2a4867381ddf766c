/** Stand-in for `k6/execution`: the iteration number the test sets. */
import { standin } from "./recorder.ts";

export default {
  scenario: {
    get iterationInTest(): number {
      return standin.iteration;
    },
  },
};
