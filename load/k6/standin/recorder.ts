/** What the stand-in saw: requests made and check results, for the test to read. */
export const standin = {
  requests: 0,
  checks: new Map<string, { passes: number; fails: number }>(),
  counters: new Map<string, number>(),
  iteration: 0,
  callback: undefined as undefined | { min: number; max: number; extra: number[] },
  reset(): void {
    this.requests = 0;
    this.checks.clear();
    this.counters.clear();
    this.iteration = 0;
    this.callback = undefined;
  },
};
