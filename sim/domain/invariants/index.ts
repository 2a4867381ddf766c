// Invariant checkers, one per invariant, run after every step of the property tests.
export * from "./pod-stock-checkers.ts";
export * from "./serverless-checkers.ts";
