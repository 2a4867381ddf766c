import t from "tap";
import type { ClientResponse } from "../../client.ts";
import { createdPodId, locationId } from "./create-pod-client.ts";

const answer = (status: number, json: unknown, headers: Record<string, string> = {}) => ({ status, json, headers }) as unknown as ClientResponse;

t.test("a created pod's id: the body's, else the Location header's", async (t) => {
  t.equal(createdPodId(answer(201, { id: "p1" }, { location: "/v2/pods/other" })), "p1", "the body first");
  t.equal(createdPodId(answer(201, undefined, { location: "/v2/pods/p2" })), "p2", "a relative Location");
  t.equal(createdPodId(answer(202, {}, { location: "https://api.example.com/v2/pods/p%203/" })), "p 3", "an absolute one");
  t.equal(createdPodId(answer(422, undefined, { location: "/v2/pods/p4" })), undefined, "never from a refusal");
  t.equal(createdPodId(answer(201, undefined, { location: "/v2/jobs/j1" })), undefined, "not a pod's");
  t.equal(locationId("::"), undefined);
});
