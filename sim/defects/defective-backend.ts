/**
 * The backend with defects switched on: every edge of every defect, in order, around the real
 * backend. Only built when at least one defect is asked for, so the clean emulator pays nothing.
 */
import { matchRoute } from "../api/routes.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../api/types.ts";
import type { EmulatorBackend } from "../http/backend.ts";
import type { Defect, Edge } from "./defect.ts";
import { keyOf } from "./edits.ts";

/** Entries a defect may remember; the oldest goes first (a limit on everything). */
const MAX_MEMORY = 10_000;

class BoundedMap<K, V> extends Map<K, V> {
  override set(key: K, value: V): this {
    if (!this.has(key) && this.size >= MAX_MEMORY) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

export function defectiveBackend(inner: EmulatorBackend, defects: readonly Defect[]): EmulatorBackend {
  let memories = defects.map(() => new BoundedMap<string, unknown>());
  const keys = inner.apiKeys();
  const accountOf = new Map(keys.map((k) => [k.key, k.account]));

  function edge(req: ApiRequest, memory: Map<string, unknown>): Edge {
    const match = matchRoute(req.method, req.path);
    const key = keyOf(req);
    return {
      op: match.kind === "match" ? match.route.op : undefined,
      params: match.kind === "match" ? match.params : {},
      key,
      account: key === undefined ? undefined : accountOf.get(key),
      keys,
      now: inner.now(),
      memory,
    };
  }

  /** One defect's edges around `next`. */
  function layer(defect: Defect, memory: Map<string, unknown>, next: (req: ApiRequest) => ApiOutcome): (req: ApiRequest) => ApiOutcome {
    return (given) => {
      let at = edge(given, memory);
      const req = defect.request ? defect.request(given, at) : given;
      if (req !== given) at = edge(req, memory);
      let out = defect.around ? defect.around(req, at, next) : next(req);
      if (defect.deadline && out.kind === "wait") out = { ...out, deadline: defect.deadline(out.deadline, at) };
      if (defect.response) out = mapOutcome(out, (res) => defect.response!(res, req, at));
      return out;
    };
  }

  function build(): (req: ApiRequest) => ApiOutcome {
    let handle = (req: ApiRequest) => inner.handle(req);
    for (let i = defects.length - 1; i >= 0; i--) handle = layer(defects[i], memories[i], handle);
    return handle;
  }
  let handle = build();

  return {
    now: () => inner.now(),
    advanceTo: (t) => inner.advanceTo(t),
    nextEventTime: () => inner.nextEventTime(),
    handle: (req) => handle(req),
    onJobFinal: (e, j, l) => inner.onJobFinal(e, j, l),
    drainWebhooks: () => inner.drainWebhooks(),
    webhookResult: (d, ok) => inner.webhookResult(d, ok),
    reset: (seed) => {
      inner.reset(seed);
      memories = defects.map(() => new BoundedMap<string, unknown>());
      handle = build();
    },
    apiKeys: () => inner.apiKeys(),
    routes: () => defects.reduce((routes, d) => (d.routes ? d.routes(routes) : routes), inner.routes()),
  };
}

/** An answer changed by `change`, whether it came at once or after a wait. */
export function mapOutcome(outcome: ApiOutcome, change: (r: ApiResponse) => ApiResponse): ApiOutcome {
  return outcome.kind === "response"
    ? { kind: "response", response: change(outcome.response) }
    : { ...outcome, render: (t) => change(outcome.render(t)) };
}
