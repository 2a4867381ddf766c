/**
 * Test-only: a target that says where things are only through its own description of itself,
 * published by a standard the suite must follow: every answer carries
 * `Link: </description.yaml>; rel="service-desc"; type="application/yaml"` (RFC 8631), and that
 * document, an OpenAPI 3.1 document in YAML, is in none of the usual places. A plain node:http
 * front on 127.0.0.1 port 0 before the embedded emulator, whose own conventions it hides:
 *
 * | what                 | the emulator                         | this target                                         |
 * |----------------------|--------------------------------------|-----------------------------------------------------|
 * | description          | GET /openapi.json                    | GET /description.yaml, linked rel="service-desc"    |
 * | pod actions          | POST /v2/pods/{id}/action {action}   | POST /v2/pods/{id}/{action}, no body                |
 * | CPU flavors          | GET /v2/catalog/cpus, `vcpu.allowed` | GET /v2/compute/cpu-flavors, `sizes: [{vcpu: n}]`   |
 * | network volumes      | GET /v2/networkvolumes               | GET /v2/datacenters/{dataCenterId}/volumes, named   |
 * |                      |                                      | in the description, or (volumes: "link") linked     |
 * |                      |                                      | from each data-center entry (`_links.volumes`)      |
 * | every 404            | its own words ("pod not found")      | one body, `{"title": "Not Found", ...}`: a probe     |
 * |                      |                                      | cannot tell a served route from a missing one        |
 *
 * Everything else is forwarded to the emulator as it is.
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmbeddedTarget } from "../conform.ts";
import { startBroken, type BrokenTarget } from "./broken-target.ts";

export const DESCRIPTION_PATH = "/description.yaml";
const LINK = `<${DESCRIPTION_PATH}>; rel="service-desc"; type="application/yaml"`;
const ACTIONS = new Set(["start", "stop", "restart", "terminate"]);

/** The target's description: OpenAPI 3.1, in YAML (block style, comments, anchors), as a service writes it. */
export const DESCRIPTION_YAML = `# The compute API, described by its owner.
openapi: 3.1.0
info:
  title: Compute
  version: 2.0.0
servers:
  - url: /
x-pod-path: &podId
  name: podId
  in: path
  required: true
  schema: { type: string }
paths:
  /v2/pods:
    get: { operationId: listPods }
    post: { operationId: createPod }
  /v2/pods/{podId}:
    parameters: [*podId]
    get: { operationId: getPod }
    patch: { operationId: updatePod }
    delete: { operationId: deletePod }
  /v2/pods/{podId}/{action}:
    parameters:
      - *podId
      - name: action
        in: path
        required: true
        schema:
          type: string
          enum: [start, stop, restart, terminate]
    post: { operationId: podAction }
  /v2/compute/cpu-flavors:
    get: { operationId: listCpuFlavors }
  /v2/catalog/gpus:
    get: { operationId: listGpuTypes }
  /v2/catalog/datacenters:
    get: { operationId: listDataCenters }
  /v2/datacenters/{dataCenterId}/volumes:
    get:
      operationId: listDataCenterVolumes
      parameters:
        - { name: dataCenterId, in: path, required: true, schema: { type: string } }
`;

const NOT_FOUND = JSON.stringify({ type: "about:blank", title: "Not Found", status: 404, detail: "Not Found" });

export interface DescribedTarget extends EmbeddedTarget {
  readonly keys: BrokenTarget["keys"];
  /** Every request the front received, as "METHOD /path". */
  readonly seen: string[];
  stop(): Promise<void>;
}

type Json = Record<string, any>;

/** The emulator's CPU catalog with each flavor's counts as a list of sizes. */
function flavorsAsSizes(body: Json): Json {
  const cpus = Array.isArray(body.cpus) ? body.cpus : [];
  return {
    cpus: cpus.map(({ vcpu, availability, ...rest }: Json) => ({ ...rest, sizes: (vcpu?.allowed ?? []).map((n: number) => ({ vcpu: n })), stock: availability?.stockStatus })),
  };
}

export interface DescribedOptions {
  /**
   * How the volumes are found: "path", the description names `/v2/datacenters/{dataCenterId}/volumes`;
   * "link", the description does not, and each data-center entry links to its own (HAL `_links.volumes`).
   */
  readonly volumes?: "path" | "link";
}

/** The data-center catalog with a HAL link from each data center to its volumes. */
function linkedDataCenters(body: Json): Json {
  const dcs = Array.isArray(body.dataCenters) ? body.dataCenters : [];
  return { ...body, dataCenters: dcs.map((dc: Json) => ({ ...dc, _links: { self: { href: `/v2/catalog/datacenters/${encodeURIComponent(dc.id)}` }, volumes: { href: `/v2/datacenters/${encodeURIComponent(dc.id)}/volumes` } } })) };
}

export async function startDescribedTarget(options: DescribedOptions = {}): Promise<DescribedTarget> {
  const description = options.volumes === "link" ? DESCRIPTION_YAML.replace(/ {2}\/v2\/datacenters\/\{dataCenterId\}\/volumes:[\s\S]*$/, "") : DESCRIPTION_YAML;
  const inner = await startBroken();
  const seen: string[] = [];
  const forward = async (req: IncomingMessage, body: string, path: string, override?: { method?: string; body?: string }) => {
    const headers: Record<string, string> = {};
    for (const h of ["authorization", "content-type", "accept"]) if (typeof req.headers[h] === "string") headers[h] = req.headers[h] as string;
    const method = override?.method ?? req.method ?? "GET";
    const sent = override?.body ?? body;
    if (override?.body !== undefined) headers["content-type"] = "application/json";
    return fetch(`${inner.rest}${path}`, { method, headers, ...(method === "GET" || method === "HEAD" || sent === "" ? {} : { body: sent }) });
  };
  const send = async (res: ServerResponse, answer: Response, edit?: (body: Json) => Json) => {
    let text = await answer.text();
    const headers: Record<string, string> = { link: LINK };
    answer.headers.forEach((v, k) => {
      if (!["content-length", "transfer-encoding", "connection", "keep-alive", "link"].includes(k)) headers[k] = v;
    });
    if (answer.status === 404) {
      text = NOT_FOUND;
      headers["content-type"] = "application/problem+json";
    } else if (edit && answer.ok) {
      text = JSON.stringify(edit(JSON.parse(text) as Json));
    }
    res.writeHead(answer.status, headers);
    res.end(text);
  };
  const notFound = (res: ServerResponse) => {
    res.writeHead(404, { "content-type": "application/problem+json", link: LINK });
    res.end(NOT_FOUND);
  };
  const handle = async (req: IncomingMessage, body: string, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? "/", "http://front.invalid");
    const path = url.pathname;
    seen.push(`${req.method} ${path}`);
    if (path === "/" && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/json", link: LINK });
      return void res.end(JSON.stringify({ name: "compute" }));
    }
    if (path === DESCRIPTION_PATH && req.method === "GET") {
      res.writeHead(200, { "content-type": "application/yaml", link: LINK });
      return void res.end(description);
    }
    // The emulator's own conventions are not served here.
    if (/^\/(openapi|swagger)|^\/v2\/(openapi|swagger)|^\/v2\/(networkvolumes|network-volumes)|^\/v2\/catalog\/cpus|^\/v2\/pods\/[^/]+\/action$/.test(path)) return notFound(res);
    const action = /^\/v2\/pods\/([^/]+)\/([a-z]+)$/.exec(path);
    if (action && req.method === "POST") {
      if (!ACTIONS.has(action[2]!)) return notFound(res);
      return send(res, await forward(req, body, `/v2/pods/${action[1]}/action`, { body: JSON.stringify({ action: action[2] }) }));
    }
    if (path === "/v2/catalog/datacenters" && req.method === "GET" && options.volumes === "link") return send(res, await forward(req, body, `${path}${url.search}`), linkedDataCenters);
    if (path === "/v2/compute/cpu-flavors" && req.method === "GET") return send(res, await forward(req, body, `/v2/catalog/cpus${url.search}`), flavorsAsSizes);
    const volumes = /^\/v2\/datacenters\/([^/]+)\/volumes$/.exec(path);
    if (volumes && req.method === "GET") {
      const dc = decodeURIComponent(volumes[1]!);
      return send(res, await forward(req, body, "/v2/networkvolumes"), (b) => ({
        volumes: (Array.isArray(b.networkVolumes) ? b.networkVolumes : []).filter((v: Json) => v.dataCenterId === dc),
      }));
    }
    return send(res, await forward(req, body, `${path}${url.search}`));
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      handle(req, Buffer.concat(chunks).toString("utf8"), res).catch((err: Error) => {
        res.writeHead(502, { "content-type": "text/plain" });
        res.end(`front: ${err.message}`);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const rest = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    rest,
    serverless: rest,
    keys: inner.keys,
    endpoint: inner.endpoint,
    controlApi: true,
    seen,
    close: async () => {},
    stop: async () => {
      await new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      });
      await inner.stop();
    },
  };
}
