/**
 * Follows each key the traffic uses (by an opaque name, never the key): the RateLimit windows
 * of its successive answers, and its 429s.
 * - ratelimit.remaining-decreases (target): between two answers to one key, ordered by the
 *   traffic (the later request sent after the earlier answer arrived), a window that cannot have
 *   reset never gains remaining requests. Others may share the key outside the proxy, so a drop
 *   of more than one is no finding; but remaining counts that never move over many writes are.
 * - client.retry-after (client): after a 429 with Retry-After N, the key is not used again until
 *   N seconds after the 429 arrived.
 */
import { limitsOf } from "../checks/auth/ratelimit/read-rate-limit.ts";
import { describeStep, windowSteps } from "../checks/auth/ratelimit/window-steps.ts";
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
}

/** Comparable pairs, with writes among them, after which remaining counts that never moved are a finding. */
export const NEVER_MOVED_PAIRS = 5;

export function createKeyFollower(capacity = 1000): PassiveCheck {
  const keys = new BoundedMap<string, KeySeen>(capacity);
  return {
    name: "key-follower",
    rules: [
      { id: "ratelimit.remaining-decreases", side: "target" },
      { id: "client.retry-after", side: "client" },
    ],
    judge({ exchange, op }) {
      if (exchange.keyId === undefined || op.kind === "unknown") return [];
      const k = keys.get(exchange.keyId) ?? { pairs: 0, moved: false, writes: 0 };
      keys.set(exchange.keyId, k);
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
          const rose = steps.filter((s) => s.after > s.before);
          out.push(
            rose.length
              ? {
                  ruleId: "ratelimit.remaining-decreases",
                  side: "target",
                  problem: `each counted request lowers every window's remaining count until it resets; between two answers to one key ${rose.map(describeStep).join(", ")}, with no reset possible`,
                  sequence: [prev],
                }
              : { ruleId: "ratelimit.remaining-decreases", side: "target" },
          );
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
