/**
 * Whole-run determinism: a small queueing model (arrivals, service, a routing decision noted in the
 * log) run on the engine, compared by log hash.
 */
import t from "tap";
import { Engine } from "./engine.ts";
import type { EventLog } from "./event-log.ts";
import { firstDivergence } from "./event-log.ts";
import { seconds } from "./time.ts";

interface ModelOptions {
  seed: string | number;
  /** Fork and draw from an extra stream that nothing else uses (a new entity, say). */
  extraStream?: boolean;
  /** If the event with this number (1-based) is an arrival, route it to the other server. */
  flipAt?: number;
}

/** The event numbers at which arrivals ran, for choosing where to flip a decision. */
let arrivalSteps: number[] = [];

function runModel(options: ModelOptions): EventLog {
  arrivalSteps = [];
  const engine = new Engine({ seed: options.seed });
  const arrivals = engine.rng.fork("arrivals");
  const service = engine.rng.fork("service");
  const routing = engine.rng.fork("routing");
  const extra = options.extraStream ? engine.rng.fork("new-entity") : undefined;
  const busyUntil = [0, 0];
  let jobs = 0;
  const done = engine.defineKind("done", () => {});
  const arrive = engine.defineKind("arrive", (target) => {
    extra?.exponential(1);
    arrivalSteps.push(engine.steps);
    let server = routing.bernoulli(0.5) ? 1 : 0;
    if (engine.steps === options.flipAt) server = 1 - server;
    engine.log.note(server);
    const start = Math.max(engine.now, busyUntil[server]);
    busyUntil[server] = start + Math.round(service.lognormalMeanCv(8000, 0.7));
    engine.at(busyUntil[server], done, server);
    jobs++;
    engine.after(Math.round(arrivals.exponential(5000)), arrive, target + 1);
  });
  engine.at(0, arrive, 0);
  engine.runUntil(seconds(20));
  t.ok(jobs > 1000, "the model does real work");
  return engine.log;
}

t.test("same seed, same log hash; different seeds, different hashes", (t) => {
  const a = runModel({ seed: "alpha" });
  const b = runModel({ seed: "alpha" });
  t.equal(a.hash(), b.hash());
  t.equal(a.count, b.count);
  t.equal(firstDivergence(a, b), undefined);
  const hashes = new Set(["alpha", "beta", "gamma", 1, 2].map((seed) => runModel({ seed }).hash()));
  t.equal(hashes.size, 5);
  t.end();
});

t.test("forking and drawing from a new stream leaves the run unchanged", (t) => {
  t.equal(runModel({ seed: "alpha", extraStream: true }).hash(), runModel({ seed: "alpha" }).hash());
  t.end();
});

t.test("firstDivergence finds the event where a decision changed", (t) => {
  const base = runModel({ seed: "alpha" });
  const arrivals = arrivalSteps;
  for (const k of [arrivals[0], arrivals[1], arrivals[250], arrivals[1500]]) {
    const flipped = runModel({ seed: "alpha", flipAt: k });
    t.not(flipped.hash(), base.hash());
    t.equal(firstDivergence(base, flipped), k, `flip at event ${k}`);
    t.equal(base.hashAt(k - 1), flipped.hashAt(k - 1), "equal just before");
  }
  t.end();
});
