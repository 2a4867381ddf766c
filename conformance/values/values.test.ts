/** The run's value store (value-store.ts) on its own. The full suite against a target with open choices: open-choices.test.ts. */
import "./value-store.part.test.ts";
