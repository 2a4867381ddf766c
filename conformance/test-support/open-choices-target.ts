/**
 * Test-only: the embedded emulator as an implementation that picks two conventions the spec leaves
 * open: ports of the `http` and `tcp` protocols only (the spec lists none), and images pinned to a
 * version (a `:latest` tag refused). A createPod or PATCH with such a value is refused with 422
 * naming its path (`/ports/0`, `/image`), whatever else the body holds, as a correct target may.
 */
import type { ApiOutcome, ApiRequest } from "../../sim/api/types.ts";
import { startBroken, type BrokenTarget } from "./broken-target.ts";

export interface OpenChoicesTarget extends BrokenTarget {
  /** Bodies it refused for one of its two choices. */
  readonly refused: () => number;
}

function refusal(detail: string): ApiOutcome {
  return { kind: "response", response: { status: 422, headers: { "content-type": "application/problem+json" }, body: { title: "Unprocessable Entity", status: 422, detail } } };
}

/** `alter`: a defect on top (an answer of the emulator rewritten), for a test that it is still caught. */
export async function startOpenChoices(seed = 1, alter?: (request: ApiRequest, outcome: ApiOutcome) => ApiOutcome): Promise<OpenChoicesTarget> {
  let refused = 0;
  const target = await startBroken((request: ApiRequest, next) => {
    const create = request.method === "POST" && request.path === "/v2/pods";
    const patch = request.method === "PATCH" && /^\/v2\/pods\/[^/]+$/.test(request.path);
    const body = request.body as Record<string, unknown> | undefined;
    if ((create || patch) && body !== null && typeof body === "object" && !Array.isArray(body)) {
      const ports = Array.isArray(body["ports"]) ? (body["ports"] as unknown[]) : [];
      const at = ports.findIndex((p) => typeof p === "string" && p.endsWith("/udp"));
      if (at >= 0) {
        refused++;
        return refusal(`/ports/${at}: the protocol must be http or tcp`);
      }
      if (typeof body["image"] === "string" && body["image"].endsWith(":latest")) {
        refused++;
        return refusal("/image: pin a version; the tag latest is not accepted");
      }
    }
    return alter ? alter(request, next(request)) : next(request);
  }, seed);
  return { ...target, refused: () => refused };
}
