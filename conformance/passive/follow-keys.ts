/**
 * Follows each key the traffic uses (by an opaque name, never the key): the RateLimit windows
 * of its successive answers, and its 429s.
 * - ratelimit.remaining-decreases (target): between two answers to one key, ordered by the
 *   traffic (the later request sent after the earlier answer arrived), a window that cannot have
 *   reset never gains remaining requests. Others may share the key outside the proxy, so a drop
 *   of more than one is no finding; but remaining counts that never move over many writes are.
 * - client.retry-after (client): after a 429 with Retry-After N, the key is not used again until
 *   N seconds after the 429 arrived.
 * - auth.bearer-header and auth.bare-key-jobs (target): a job endpoint takes the key as
 *   `Bearer <key>` and alone; a key the target served (any 2xx) that a job endpoint refuses with
 *   401 in one of those forms was refused for its form ("A missing, malformed, expired or invalid
 *   key gives 401": this one is none of those). A key revoked between the two reads the same.
 * - pods.not-found (target, choices.md, strict only): "An unknown pod id gives 404": a pod read
 *   answered 403 to a key the target serves pod reads is a pod that key cannot see, so a 404.
 * - auth.invalid-key (target): "A missing, malformed, expired or invalid key gives 401". A key
 *   the target refused with 401 in a form every surface takes (`Authorization: Bearer <key>`, or
 *   GraphQL's `api_key` query) is one it does not know; answered 403 later (ordered by the
 *   traffic), it was refused as lacking access instead of as invalid. A 403 before the 401 is no
 *   finding: a key may expire in between.
 */
import { limitsOf } from "../checks/auth/ratelimit/read-rate-limit.ts";
import { windowSteps } from "../checks/auth/ratelimit/window-steps.ts";
import { kept, type SeenExchange } from "./answer.ts";
import { BoundedMap } from "./bounded-map.ts";
import { retryAfterMs } from "../retry-after.ts";
import type { Judgement, PassiveCheck } from "./judgement.ts";

interface KeySeen {
  last?: SeenExchange;
  pairs: number;
  moved: boolean;
  writes: number;
  lastPair?: readonly [SeenExchange, SeenExchange];
  blockedUntil?: { until: number; exchange: SeenExchange; flagged: boolean };
  /** An answer that served the key a pod read (2xx to GET /v2/pods or a pod), the first one. */
  readsPods?: SeenExchange;
  /** An answer that served the key (2xx), the first one. */
  served?: SeenExchange;
  /** The first answer that refused the key with 401 in a form every surface takes: the target does not know it. */
  unknown?: SeenExchange;
  /** Job requests refused with 401 before the key was seen served, by the form the key took (one each). */
  refused?: Partial<Record<KeyForm, SeenExchange>>;
}

type KeyForm = "bearer" | "bare";
const FORM_RULE: Readonly<Record<KeyForm, string>> = { bearer: "auth.bearer-header", bare: "auth.bare-key-jobs" };
const FORM_WORDS: Readonly<Record<KeyForm, string>> = { bearer: "`Authorization: Bearer <key>`", bare: "the key alone in `Authorization`" };

function formOf(header: string | undefined): KeyForm | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  return /^bearer\s+\S+$/i.test(header.trim()) ? "bearer" : /^\S+$/.test(header.trim()) ? "bare" : undefined;
}

function refusedForForm(form: KeyForm, refused: SeenExchange, served: SeenExchange): Judgement {
  return {
    ruleId: FORM_RULE[form],
    side: "target",
    problem: `a job endpoint takes the key as ${FORM_WORDS[form]}; the key the target served at exchange #${served.seq} was refused with 401 in that form at exchange #${refused.seq}`,
    sequence: [served],
    exchange: refused,
  };
}

/** The key came as `Authorization: Bearer <key>`, or on GraphQL in the `api_key` query: forms no surface may refuse as malformed. */
function takenEverywhere(x: SeenExchange, graphql: boolean): boolean {
  return formOf(x.request.headers["authorization"]) === "bearer" || (graphql && x.request.headers["authorization"] === undefined && (x.request.query.get("api_key") ?? "") !== "");
}

/** Comparable pairs, with writes among them, after which remaining counts that never moved are a finding. */
export const NEVER_MOVED_PAIRS = 5;

export function createKeyFollower(capacity = 1000): PassiveCheck {
  const keys = new BoundedMap<string, KeySeen>(capacity);
  /** The key of the last exchange, which is already the newest in `keys`. */
  let newest: string | undefined;
  return {
    name: "key-follower",
    rules: [
      { id: "ratelimit.remaining-decreases", side: "target" },
      { id: "client.retry-after", side: "client" },
      { id: "auth.bearer-header", side: "target" },
      { id: "auth.bare-key-jobs", side: "target" },
      { id: "pods.not-found", side: "target" },
      { id: "auth.invalid-key", side: "target" },
    ],
    judge({ exchange, op }) {
      if (exchange.keyId === undefined || op.kind === "unknown") return [];
      let k = keys.get(exchange.keyId);
      // Set again (to the newest end) only when another key came between: a client sends one key again and again.
      if (k === undefined || exchange.keyId !== newest) keys.set(exchange.keyId, (k ??= { pairs: 0, moved: false, writes: 0 }));
      newest = exchange.keyId;
      const out: Judgement[] = [];
      const block = k.blockedUntil;
      if (block && exchange.sentAt >= block.exchange.answeredAt) {
        if (exchange.sentAt < block.until) {
          if (!block.flagged) {
            block.flagged = true;
            const waited = exchange.sentAt - block.exchange.answeredAt;
            out.push({
              ruleId: "client.retry-after",
              side: "client",
              problem: `no request with this key for Retry-After ${block.exchange.answer?.headers["retry-after"]} s after the 429 of exchange #${block.exchange.seq}; the client sent this one ${waited} ms after it`,
              sequence: [block.exchange],
            });
          }
        } else {
          if (!block.flagged) out.push({ ruleId: "client.retry-after", side: "client" });
          k.blockedUntil = undefined;
        }
      }
      const a = exchange.answer;
      if (!a) return out;
      const form = op.kind === "job" ? formOf(exchange.request.headers["authorization"]) : undefined;
      const unknown = k.unknown;
      if (unknown && exchange.sentAt >= unknown.answeredAt && (a.status === 401 || a.status === 403)) {
        out.push(
          a.status === 401
            ? { ruleId: "auth.invalid-key", side: "target" }
            : {
                ruleId: "auth.invalid-key",
                side: "target",
                problem: `401 for a key the target does not know ("A missing, malformed, expired or invalid key gives 401"); it refused this key with 401 at exchange #${unknown.seq} and answered 403 here`,
                sequence: [unknown],
              },
        );
      }
      if (a.status === 401 && !unknown && !k.served && takenEverywhere(exchange, op.kind === "graphql")) k.unknown = kept(exchange);
      if (op.kind === "getPod" && (a.status === 404 || (a.status === 403 && k.readsPods))) {
        const readAt = k.readsPods;
        out.push(
          a.status === 404 || !readAt
            ? { ruleId: "pods.not-found", side: "target" }
            : {
                ruleId: "pods.not-found",
                side: "target",
                problem: `404 for a pod id the key cannot see ("An unknown pod id gives 404", docs/choices.md); got 403 for pod ${op.podId}, to a key the target served a pod read at exchange #${readAt.seq}`,
                sequence: [readAt],
              },
        );
      }
      if ((op.kind === "getPod" || op.kind === "listPods") && a.status >= 200 && a.status < 300 && !k.readsPods) k.readsPods = kept(exchange);
      if (a.status >= 200 && a.status < 300) {
        if (form) out.push({ ruleId: FORM_RULE[form], side: "target" });
        if (!k.served) {
          k.served = kept(exchange);
          for (const [f, refused] of Object.entries(k.refused ?? {}) as [KeyForm, SeenExchange][]) out.push(refusedForForm(f, refused, k.served));
          k.refused = undefined;
        }
      } else if (a.status === 401 && form) {
        if (k.served) out.push(refusedForForm(form, kept(exchange), k.served));
        else if (!k.refused?.[form]) k.refused = { ...k.refused, [form]: kept(exchange) };
      }
      if (a.status === 429) {
        const wait = retryAfterMs(a.headers["retry-after"], exchange.answeredAt);
        if (wait !== undefined && wait > 0) k.blockedUntil = { until: exchange.answeredAt + wait, exchange: kept(exchange), flagged: false };
        return out;
      }
      if (a.status < 200 || a.status >= 300) return out;
      const now = limitsOf(a.headers);
      if (!now) return out;
      const prev = k.last;
      if (prev && exchange.sentAt >= prev.answeredAt) {
        const steps = windowSteps(limitsOf(prev.answer!.headers)!, now, exchange.sentAt - prev.answeredAt).filter((s) => !s.mayHaveReset);
        if (steps.length > 0) {
          k.pairs++;
          if (exchange.request.method !== "GET") k.writes++;
          if (steps.some((s) => s.after !== s.before)) k.moved = true;
          k.lastPair = [prev, kept(exchange)];
          // r rising before t is no fault: a sliding window whose t names the whole quota's return
          // gives quota back before it (window-steps.ts). Traffic judges that counts move at all.
          out.push({ ruleId: "ratelimit.remaining-decreases", side: "target" });
        }
      }
      if (!prev || exchange.answeredAt >= prev.answeredAt) k.last = kept(exchange);
      return out;
    },
    finish() {
      const out: Judgement[] = [];
      for (const k of keys.values()) {
        if (k.pairs >= NEVER_MOVED_PAIRS && k.writes > 0 && !k.moved && k.lastPair) {
          out.push({
            ruleId: "ratelimit.remaining-decreases",
            side: "target",
            problem: `remaining counts that move as requests are counted; over ${k.pairs} answers to one key (${k.writes} of them writes) no window's r ever changed`,
            sequence: [k.lastPair[0]],
            exchange: k.lastPair[1],
          });
        }
      }
      return out;
    },
  };
}
