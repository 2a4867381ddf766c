import t from "tap";
import type { ClientResponse } from "../../client.ts";
import type { Exchange } from "../../recorder.ts";
import { createdPodId, locationId, podIdCapture } from "./create-pod-client.ts";

const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => ({ status, json, headers }) as unknown as ClientResponse;

t.test("a created pod's id: the body's, else the Location header's", async (t) => {
  t.equal(createdPodId(answer(201, { id: "p1" }, { location: "/v2/pods/other" })), "p1", "the body first");
  t.equal(createdPodId(answer(201, undefined, { location: "/v2/pods/p2" })), "p2", "a relative Location");
  t.equal(createdPodId(answer(202, {}, { location: "https://api.example.com/v2/pods/p%203/" })), "p 3", "an absolute one");
  t.equal(createdPodId(answer(422, undefined, { location: "/v2/pods/p4" })), undefined, "never from a refusal");
  t.equal(createdPodId(answer(201, undefined, { location: "/v2/jobs/j1" })), undefined, "not a pod's");
  t.equal(locationId("::"), undefined);
});

t.test("a created pod's id in a failure's script: read from the body where it is there, else from Location", async (t) => {
  const exchange = (body: string, headers: Record<string, string> = {}) =>
    ({ request: { method: "POST", url: "http://x/v2/pods", headers: {} }, response: { status: 201, headers, body } }) as unknown as Exchange;
  t.same(podIdCapture("POD_ID", 0, exchange('{"id":"p1"}', { location: "/v2/pods/p1" }), "p1"), { variable: "POD_ID", fromRequest: 0, field: "id", value: "p1" });
  t.same(podIdCapture("POD_ID", 0, exchange('{"podId":"p2"}', { location: "/v2/pods/p2" }), "p2").fromLocation, true, "the body names no id");
  t.same(podIdCapture("POD_ID", 0, exchange("", { location: "https://api.example.test/v2/pods/p3" }), "p3").fromLocation, true, "no body at all");
  t.equal(podIdCapture("POD_ID", 0, exchange("{}", {}), "p4").fromLocation, undefined, "no Location either: the body, as before");
});
