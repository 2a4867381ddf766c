/** RFC 8288 Link headers, links inside bodies (HAL, JSON:API, arrays, RFC 9264 linksets), YAML and prefixed descriptions. */
import t from "tap";
import { bodyLinks, linkTo, parseLinkHeader } from "./web-links.ts";
import { parseDescription } from "./service-description.ts";
import { pathPrefix, readOpenApi } from "./openapi-facts.ts";

const BASE = "http://api.test/v2/";

t.test("a Link header: several links, several relations, quoted commas and semicolons, relative targets", async (t) => {
  const links = parseLinkHeader(`</openapi.yaml>; rel="service-desc describedby"; type="application/yaml", <https://docs.test/a,b;c>; rel=service-doc; title="a, b; c", <pods?page=2>; REL="Next"`, BASE);
  t.same(links, [
    { href: "http://api.test/openapi.yaml", rels: ["service-desc", "describedby"], type: "application/yaml" },
    { href: "https://docs.test/a,b;c", rels: ["service-doc"] },
    { href: "http://api.test/v2/pods?page=2", rels: ["next"] },
  ]);
  t.equal(linkTo(links, "SERVICE-DESC")?.href, "http://api.test/openapi.yaml", "relations compare in lower case");
  t.same(parseLinkHeader(`<javascript:alert(1)>; rel="service-desc", <x>`, BASE), [], "only http(s) targets with a relation");
  t.same(parseLinkHeader(undefined, BASE), []);
});

t.test("links inside bodies: HAL, JSON:API, a links array and an RFC 9264 linkset", async (t) => {
  t.same(bodyLinks({ _links: { self: { href: "/v2" }, "service-desc": { href: "/d.json" }, volumes: [{ href: "/v2/vols" }], curies: [{ href: "/rels/{rel}" }] } }, BASE), [
    { href: "http://api.test/v2", rels: ["self"] },
    { href: "http://api.test/d.json", rels: ["service-desc"] },
    { href: "http://api.test/v2/vols", rels: ["volumes"] },
  ]);
  t.same(bodyLinks({ links: { describedby: "/schema.yaml", next: { href: "?cursor=2" } } }, BASE), [
    { href: "http://api.test/schema.yaml", rels: ["describedby"] },
    { href: "http://api.test/v2/?cursor=2", rels: ["next"] },
  ]);
  t.same(bodyLinks({ links: [{ rel: "prev next", href: "/p" }] }, BASE), [{ href: "http://api.test/p", rels: ["prev", "next"] }]);
  t.same(bodyLinks({ linkset: [{ anchor: "https://api.test/", "service-desc": [{ href: "/openapi.json", type: "application/json" }] }] }, BASE), [
    { href: "https://api.test/openapi.json", rels: ["service-desc"], type: "application/json" },
  ]);
  t.same(bodyLinks([1, 2], BASE), []);
});

const SWAGGER_YAML = `swagger: "2.0"
basePath: /api
paths:
  /v2/pods:
    get: {}
  /v2/pods/{id}:
    delete: {}
  /v2/pods/{id}/action:
    post: {}
  /v2/cpu-flavors:
    get: {}
  /v2/data-centers/{dc}/network-volumes:
    get: {}
`;

t.test("a Swagger 2.0 description in YAML, its basePath before every path", async (t) => {
  const doc = parseDescription(SWAGGER_YAML, "application/yaml");
  const found = readOpenApi(doc, "/swagger.yaml")!;
  t.equal(found.values.podActionPath, "/api/v2/pods/{podId}/action");
  t.equal(found.values.podDeletePath, "/api/v2/pods/{podId}");
  t.equal(found.values.cpuCatalogPath, "/api/v2/cpu-flavors");
  t.same(found.values.networkVolumes, { dataCenterPath: "/api/v2/data-centers/{dataCenterId}/network-volumes" });
});

t.test("an OpenAPI 3 server URL's path is the prefix; a variable takes its default", async (t) => {
  t.equal(pathPrefix({ openapi: "3.1.0", servers: [{ url: "https://prod.example/compute/" }] }), "/compute");
  t.equal(pathPrefix({ openapi: "3.0.3", servers: [{ url: "/{base}", variables: { base: { default: "api" } } }] }), "/api");
  t.equal(pathPrefix({ openapi: "3.0.3", servers: [{ url: "/{base}" }] }), "", "a variable without a default: no prefix assumed");
  t.equal(pathPrefix({ openapi: "3.0.3" }), "");
  const doc = { openapi: "3.0.3", servers: [{ url: "/v2" }], paths: { "/pods": { get: {} }, "/v2/pods/{id}/{verb}": { post: {} } } };
  t.same([readOpenApi(doc, "x")!.values.podListPath, readOpenApi(doc, "x")!.values.podActionPath], ["/v2/pods", "/v2/pods/{podId}/{action}"], "a path already under the prefix is kept");
});

t.test("a description is JSON, or else YAML; HTML and bombs are not read", async (t) => {
  t.same(parseDescription('{"openapi":"3.1.0"}', "application/json"), { openapi: "3.1.0" });
  t.same(parseDescription("openapi: 3.1.0\npaths: {}\n", "text/plain"), { openapi: "3.1.0", paths: {} });
  t.equal(parseDescription("<html><body>docs</body></html>", "text/html"), undefined);
  const bomb = `a: &a [x, x, x, x, x, x, x, x, x]\n${Array.from({ length: 12 }, (_, i) => `b${i}: &b${i} [${Array(9).fill(i === 0 ? "*a" : `*b${i - 1}`).join(", ")}]`).join("\n")}\n`;
  t.equal(parseDescription(bomb, "application/yaml"), undefined, "an alias bomb is refused, not expanded");
});
