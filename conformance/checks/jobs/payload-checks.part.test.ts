import t from "tap";
import { paddedBody } from "./payload-checks.ts";

t.test("padded bodies have the exact size and stay valid JSON", async (t) => {
  for (const size of [1_000, 10_000_000, 10_485_761]) {
    const body = paddedBody(size);
    t.equal(Buffer.byteLength(body), size);
    t.equal((JSON.parse(body) as { input: { op: string } }).input.op, "sleep");
  }
});
