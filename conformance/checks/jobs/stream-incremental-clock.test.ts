/**
 * `jobs.stream.incremental` beside other rules on one manual clock: in the space's bench (seeds 18
 * and 19: warm workers, tight quotas) another rule's wait moved the shared clock between the rule's
 * stream read, which showed the job IN_PROGRESS with a chunk, and its status read, which then saw
 * the job COMPLETED; the rule skipped as "set-up not reached". Here a proxy makes that happen on
 * every try: after a stream answer that is IN_PROGRESS with a chunk, it moves the clock a minute
 * before the next status read. The stream answer's own status dates its chunks, so the rule judges.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import t from "tap";
import { conformThroughProxy, listening } from "../../test-support/jobs/manual-clock-behind-proxy.ts";
import "./index.ts";

/** Forwards to `upstream`; after a running stream answer with a chunk, the next status read first moves the clock 60 s. */
async function clockJumpingProxy(upstream: string) {
  let jumpNext = false;
  let running = 0;
  let controlHeaders: Record<string, string> = {};
  const send = (method: string, url: string, headers: IncomingMessage["headers"], body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage["headers"]; body: Buffer }>((resolve, reject) => {
      const out = httpRequest(new URL(url, upstream), { method, headers }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (c: Buffer) => chunks.push(c));
        answer.on("end", () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
        answer.on("error", reject);
      });
      out.on("error", reject);
      out.end(body);
    });
  const handle = async (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const url = req.url ?? "/";
    if (url.startsWith("/_sim/")) {
      controlHeaders = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k.startsWith("x-cpsim-control")).map(([k, v]) => [k, String(v)]));
    }
    if (req.method === "GET" && /\/status\/[^/?]+/.test(url) && jumpNext) {
      jumpNext = false;
      await send("POST", "/_sim/clock/advance", { ...controlHeaders, "content-type": "application/json" }, Buffer.from(JSON.stringify({ ms: 60_000 })));
    }
    const answer = await send(req.method ?? "GET", url, req.headers, body);
    if (req.method === "GET" && /\/stream\/[^/?]+/.test(url)) {
      try {
        const json = JSON.parse(answer.body.toString("utf8")) as { status?: unknown; stream?: unknown };
        if (json.status === "IN_PROGRESS" && Array.isArray(json.stream) && json.stream.length > 0) {
          jumpNext = true;
          running++;
        }
      } catch {
        // not JSON: the rule judges that itself
      }
    }
    const { "transfer-encoding": _chunked, ...headers } = answer.headers;
    res.writeHead(answer.status, { ...headers, "content-length": answer.body.length });
    res.end(answer.body);
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => void handle(req, res, Buffer.concat(chunks)).catch(() => res.destroy()));
  });
  /** Stream answers that showed the job IN_PROGRESS with a chunk (each arms a jump). */
  return { ...(await listening(server)), running: () => running };
}

t.test("a clock moved between the stream read and the status read does not cost the verdict", async (t) => {
  const { proxy, report } = await conformThroughProxy(t, clockJumpingProxy, "jobs.stream.incremental");
  t.ok(proxy.running() > 0, "a stream answer showed the job running with a chunk (the next status read would see it finished)");
  const rule = report.rules.find((r) => r.id === "jobs.stream.incremental");
  t.equal(rule?.status, "pass", `the rule judges and passes (${rule?.status}: ${rule?.reason ?? ""})`);
  t.same(report.targetErrors ?? [], [], "no target errors");
});
