/**
 * The `actionEffect` dimension: when a pod action's effect shows. The emulator's shows at once.
 * A delayed point answers the action 200 with the pod as it was last read, and REST reads of the
 * pod (one pod, the list) keep showing that view until the delay has passed on the service's
 * clock; then the model's pod shows. Seen through the layer's inner calls, in the emulator's own
 * shapes (before lists, paths and presentation are the point's). GraphQL is left as it is.
 */
import type { ApiResponse } from "../api/types.ts";
import type { Micros } from "../core/index.ts";
import type { Conventions } from "./dimensions.ts";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const DELAYS_S: Readonly<Record<Conventions["actionEffect"], number>> = { immediate: 0, "delayed-2s": 2, "delayed-30s": 30, "delayed-300s": 300 };
const MAX_PODS = 10_000;
const POD = /^\/v2\/pods\/([^/]+)$/;
const ACTION = /^\/v2\/pods\/([^/]+)\/action$/;

export class ActionEffects {
  private readonly delay: Micros;
  /** The pod as last shown, by id (bounded: the oldest forgotten first). */
  private readonly shown = new Map<string, Json>();
  /** Pods whose last action has not shown yet: the view to keep, and until when. */
  private readonly pending = new Map<string, { readonly view: Json; readonly until: Micros }>();

  constructor(c: Conventions) {
    this.delay = DELAYS_S[c.actionEffect] * 1_000_000;
  }

  get active(): boolean {
    return this.delay > 0;
  }

  /** The emulator's answer to `method path` as the point shows it at `now`. */
  answer(method: string, path: string, r: ApiResponse, now: Micros): ApiResponse {
    if (!this.active || r.status >= 300 || !isObject(r.body)) return r;
    const action = method === "POST" ? ACTION.exec(path) : null;
    if (action) {
      const before = this.shown.get(decodeURIComponent(action[1]!));
      if (before === undefined) return r;
      this.pending.set(before["id"] as string, { view: before, until: now + this.delay });
      return { ...r, body: before };
    }
    if (method === "GET" && path === "/v2/pods" && Array.isArray(r.body["pods"])) {
      return { ...r, body: { ...r.body, pods: r.body["pods"].map((p) => this.view(p, now)) } };
    }
    // An update answers with the model's pod (and ends the wait: the pod has been written since).
    if (method === "PATCH" && POD.test(path) && typeof r.body["id"] === "string") this.pending.delete(r.body["id"]);
    if ((method === "GET" || method === "PATCH") && POD.test(path)) return { ...r, body: this.view(r.body, now) };
    if (method === "POST" && path === "/v2/pods") this.view(r.body, now);
    return r;
  }

  private view(pod: unknown, now: Micros): unknown {
    if (!isObject(pod) || typeof pod["id"] !== "string") return pod;
    const id = pod["id"];
    const pending = this.pending.get(id);
    if (pending !== undefined && now < pending.until) return pending.view;
    this.pending.delete(id);
    this.shown.delete(id);
    if (this.shown.size >= MAX_PODS) this.shown.delete(this.shown.keys().next().value!);
    this.shown.set(id, pod);
    return pod;
  }
}
