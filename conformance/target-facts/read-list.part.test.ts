/**
 * Lists as targets serve them: a bare array or the one array of an envelope, followed through
 * its pages by a Link header, a next URL or a cursor, each over a real server on loopback; the
 * pages a target offers forever are bounded.
 */
import t from "tap";
import { Client } from "../client.ts";
import { sendJson, startTestServer } from "../test-support/test-server.ts";
import { cursorParam, linkNext, listOf, readList } from "./read-list.ts";

const ITEMS = Array.from({ length: 7 }, (_, i) => ({ id: `v${i}` }));
const ids = (items: unknown[] | undefined) => (items ?? []).map((v) => (v as { id: string }).id);

t.test("the list of a body: itself, the named field, the one array, else items/data/results", async (t) => {
  t.same(listOf([1, 2]), [1, 2]);
  t.same(listOf({ pods: [1] }, "pods"), [1]);
  t.equal(listOf({ items: [1] }, "pods"), undefined, "a named field is that field");
  t.same(listOf({ whatever: [3], total: 1 }), [3], "the only array, whatever its name");
  t.same(listOf({ data: [4], links: [], errors: [] }), [4], "among several arrays, a usual envelope field");
  t.equal(listOf({ a: [1], b: [2] }), undefined, "two arrays and none usual: no list");
  t.equal(listOf("x"), undefined);
  t.equal(cursorParam("nextCursor"), "cursor");
  t.equal(cursorParam("nextPageToken"), "pageToken");
  t.equal(cursorParam("next_page"), "page");
  t.equal(linkNext('<https://x/p?page=2>; rel="next", <https://x/p?page=9>; rel="last"', "https://x/p"), "https://x/p?page=2");
  t.equal(linkNext('</p?page=2>; rel=next', "https://x/p"), "https://x/p?page=2");
  t.equal(linkNext('<https://x/p?page=1>; rel="prev"', "https://x/p"), undefined);
});

t.test("every page is read, whichever way the target pages", async (t) => {
  const page = (from: number) => ITEMS.slice(from, from + 3);
  const server = await startTestServer((req, res) => {
    const url = new URL(req.url, "http://x");
    const at = (name: string) => Number(url.searchParams.get(name) ?? 0);
    switch (url.pathname) {
      case "/bare": return sendJson(res, 200, ITEMS);
      case "/cursor": {
        const from = at("cursor");
        return sendJson(res, 200, { items: page(from), nextCursor: from + 3 < ITEMS.length ? String(from + 3) : null });
      }
      case "/token": {
        const from = at("pageToken");
        return sendJson(res, 200, { volumes: page(from), nextPageToken: from + 3 < ITEMS.length ? String(from + 3) : "" });
      }
      case "/link": {
        const from = at("page");
        const more = from + 3 < ITEMS.length;
        return sendJson(res, 200, { data: page(from) }, more ? { link: `</link?page=${from + 3}&cloud=${url.searchParams.get("cloud")}>; rel="next"` } : {});
      }
      case "/next": {
        const from = at("offset");
        return sendJson(res, 200, { results: page(from), count: 7, next: from + 3 < ITEMS.length ? `http://${req.headers.host}/next?offset=${from + 3}` : null });
      }
      case "/forever": return sendJson(res, 200, { items: [{ id: `f${at("cursor")}` }], nextCursor: String(at("cursor") + 1) });
      case "/loop": return sendJson(res, 200, { items: [{ id: "same" }], nextCursor: "0" });
      default: return sendJson(res, 404, { title: "Not Found" });
    }
  });
  t.teardown(() => server.close());
  const client = Client.create({ timeoutMs: 5000, keys: {} });
  t.teardown(() => client.close());
  const read = (path: string, query?: Record<string, string>) => readList(client, { method: "GET", url: `${server.url}${path}`, ...(query ? { query } : {}) });
  t.same(ids((await read("/bare"))?.items), ids(ITEMS), "a bare array");
  const cursor = await read("/cursor");
  t.same(ids(cursor?.items), ids(ITEMS), "items + nextCursor, sent back as ?cursor=");
  t.equal(cursor?.pages, 3);
  t.equal(cursor?.field, "items");
  t.same(ids((await read("/token"))?.items), ids(ITEMS), "any one array + nextPageToken, sent back as ?pageToken=");
  t.same(ids((await read("/link", { cloud: "SECURE" }))?.items), ids(ITEMS), "data + Link rel=next");
  t.ok(server.received.some((r) => r.url === "/link?cloud=SECURE"), "the first page carries the query");
  t.same(ids((await read("/next"))?.items), ids(ITEMS), "results + a next URL");
  const forever = await readList(client, { method: "GET", url: `${server.url}/forever` }, undefined, { maxPages: 5 });
  t.equal(forever?.items.length, 5, "a target that pages forever is read 5 pages deep, no more");
  t.equal((await read("/loop"))?.pages, 2, "a cursor met before ends the read");
  t.equal(await read("/missing"), undefined, "a 404 is no list");
});
