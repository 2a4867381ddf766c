/**
 * A bare HTTP server for the load tests, in its own process (forked) so that it never shares an
 * event loop with the generator. `stall` mode blocks its event loop for STALL_MS once, at the
 * 100th request (a count, so a busy machine meets it as a quiet one does): a real stall (every
 * connection waits), like a long GC pause.
 * Prints `{"url": ...}` on stdout when listening; stops on SIGTERM. Import nothing from here:
 * loading it starts the server (load/test-server-process.ts starts it as a process).
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const STALL_MS = 500;
const mode = process.argv[2] ?? "plain";
/** The request that stalls the server (at the open model's 200 requests/s, half a second in). */
const STALL_AT = 100;
let answered = 0;
let stalled = mode !== "stall";

const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    if (!stalled && ++answered >= STALL_AT) {
      stalled = true;
      const until = Date.now() + STALL_MS;
      while (Date.now() < until) {
        // Busy on purpose: the whole server stops answering.
      }
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end('{"id":"x","status":"IN_QUEUE"}');
  });
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on("SIGTERM", () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
});
