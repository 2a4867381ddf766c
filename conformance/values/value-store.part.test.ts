import t from "tap";
import { ValueStore, operationOf } from "./value-store.ts";

const url = "http://127.0.0.1:1/v2/pods";
const create = (store: ValueStore, body: unknown, status: number, error?: string) => {
  const token = {};
  const text = error === undefined ? "{}" : JSON.stringify({ title: "Unprocessable Entity", status, detail: error });
  return { refusal: store.observe({ method: "POST", url, body: JSON.stringify(body), status, text }, token), token };
};

t.test("operations by method and path", async (t) => {
  t.equal(operationOf("POST", url), "createPod");
  t.equal(operationOf("PATCH", `${url}/abc`), "updatePod");
  t.equal(operationOf("POST", `${url}/abc/action`), undefined);
  t.equal(operationOf("PATCH", `${url}/abc:stop`), undefined);
});

t.test("a refusal whose error names the path: that value refused, and its shape", async (t) => {
  const s = new ValueStore();
  create(s, { name: "a", image: "ubuntu:22.04", ports: ["8888/http"] }, 201);
  const { refusal, token } = create(s, { name: "b", image: "ubuntu:22.04", ports: ["8888/http", "1/udp"] }, 422, "/ports/1: protocol must be http or tcp");
  t.match(refusal, { op: "createPod", pointer: "/ports/1", value: "1/udp", by: "named" });
  t.same(s.refusalOf(token), refusal);
  t.equal(s.status("createPod", "/ports/0", "1/udp"), "refused");
  t.equal(s.status("createPod", "/ports/2", "8080/udp"), "refused", "the shape 9/udp");
  t.equal(s.status("createPod", "/ports/0", "8888/http"), "accepted");
  t.equal(s.status("createPod", "/ports/0", "22/tcp"), undefined, "unknown");
  t.equal(s.status("updatePod", "/ports/0", "1/udp"), undefined, "per operation");
  const fitted = s.fit("createPod", { name: "c", image: "ubuntu:22.04", ports: ["53/udp", "22/tcp", "8888/http"] }) as { ports: string[] };
  t.same(fitted.ports, ["8888/http", "22/tcp"], "a refused value gives way to an accepted one; an unknown one stays when no other accepted value is left; no duplicates");
});

t.test("a refusal that names nothing, or several fields, or is not 400/422, teaches nothing", async (t) => {
  const s = new ValueStore();
  t.equal(create(s, { name: "a", image: "x:1", ports: ["1/udp"] }, 422, "invalid request").refusal, undefined);
  t.equal(create(s, { name: "a", image: "x:1", ports: ["1/udp"] }, 422, "/ports/0 and /image are wrong").refusal, undefined);
  t.equal(create(s, { name: "a", image: "x:1", ports: ["1/udp"] }, 409, "/ports/0 is taken").refusal, undefined);
  t.equal(create(s, { name: "a", image: "x:1", gpu: { id: "g" } }, 422, "/gpu/id: no such GPU type").refusal, undefined, "a catalog field is not open");
  create(s, { name: "a", image: "x:1", gpu: { id: "g" } }, 201);
  t.equal(create(s, { name: "b", image: "x:1", gpu: { id: "g" } }, 422, "at most 0 × g are available in the SECURE cloud").refusal, undefined, "a refusal for capacity teaches nothing, even of a body alike but for one value");
  t.equal(s.size.refusals, 0);
});

t.test("a body that differs from an accepted one in one open value alone: that value refused", async (t) => {
  const s = new ValueStore();
  create(s, { name: "a", image: "ubuntu:22.04", gpu: { id: "g" } }, 201);
  t.match(create(s, { name: "a", image: "vllm/vllm-openai:latest", gpu: { id: "g" } }, 400, "bad request").refusal, { pointer: "/image", by: "alone" });
  t.equal(create(s, { name: "a", image: "ubuntu:22.04", gpu: { id: "h" } }, 400, "bad request").refusal, undefined, "a catalog field differing alone is not learned");
  const fitted = s.fit("createPod", { name: "z", image: "vllm/vllm-openai:latest" }) as { image: string };
  t.equal(fitted.image, "ubuntu:22.04", "a required field gets an accepted value");
});

t.test("a value accepted once is never refused; env values by their field", async (t) => {
  const s = new ValueStore();
  create(s, { name: "a", image: "i:1", env: { A: "x y" } }, 201);
  create(s, { name: "a", image: "i:1", env: { B: "" } }, 422, "env.B: must not be empty");
  t.equal(s.status("createPod", "/env/C", ""), "refused", "env.* holds the values of every key");
  create(s, { name: "a", image: "i:1", env: { A: "" } }, 201);
  t.equal(s.status("createPod", "/env/C", ""), "accepted", "accepted later: no longer refused");
  const fresh = new ValueStore();
  t.same(fresh.fit("createPod", { ports: ["1/udp"] }), { ports: ["1/udp"] }, "nothing learned: the body as drawn (a copy)");
});
