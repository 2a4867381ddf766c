// Large answers streaming at once share a bound of pieces per turn of the event loop, so that a
// small request waits for a few pieces, not for one piece of every answer. Counted per turn (an
// observer runs once a turn), not timed.
import t from "tap";
import type { ServerResponse } from "node:http";
import { PIECES_PER_TURN, writeJsonStream } from "./json-stream.ts";

/** Enough of a ServerResponse for writeJsonStream: every write is accepted at once. */
function sink(counter: { writes: number }, out: string[]): ServerResponse {
  return {
    destroyed: false,
    write(chunk: string) {
      counter.writes++;
      out.push(chunk);
      return true;
    },
    end(chunk: string) {
      out.push(chunk);
    },
    on() {},
    off() {},
  } as unknown as ServerResponse;
}

t.test("40 large answers at once write at most a bounded number of pieces a turn", async (t) => {
  const counter = { writes: 0 };
  const value = { output: "x".repeat(1024 * 1024) };
  const outs = Array.from({ length: 40 }, () => [] as string[]);
  let done = false;
  const streams = Promise.all(outs.map((out) => writeJsonStream(sink(counter, out), value))).then(() => (done = true));
  const perTurn: number[] = [];
  let last = 0;
  for (let turn = 0; turn < 100_000 && !done; turn++) {
    await new Promise((r) => setImmediate(r));
    perTurn.push(counter.writes - last);
    last = counter.writes;
  }
  await streams;
  t.ok(counter.writes >= 40 * 16, `${counter.writes} pieces written`);
  // The observer's turn and the bound's turn need not start at the same place: two windows at most.
  t.ok(Math.max(...perTurn) <= 2 * PIECES_PER_TURN, `at most ${Math.max(...perTurn)} pieces in a turn`);
  for (const out of outs) t.equal(out.join(""), JSON.stringify(value));
});
