/**
 * Reads a run or runsync body into the model's SubmitRequest. Validation (keys, input object,
 * policy bounds, webhook URL, payload size) is validateJobSubmit's; this file only decides what
 * reaches the model.
 *
 * Only the policy keys the client sent are passed on. The validator's normalized value carries
 * choices.md's defaults (ttl 24 h, executionTimeout 600 s), but to the model an explicit ttl
 * replaces the result retention (30 min after run, 1 min after runsync) and an explicit
 * executionTimeout overrides the endpoint's own: forwarding the defaults would change both.
 * `s3Config` is accepted and ignored: the model stores no objects.
 */
import type { SubmitRequest } from "../../../domain/serverless/index.ts";
import type { OpContext } from "../../op-context.ts";
import type { JobSubmitRequest } from "../../schemas/index.ts";
import { validateJobSubmit } from "../../validate/index.ts";
import type { ApiResponse } from "../../types.ts";
import { invalidRequest } from "./invalid-request.ts";
import { endpointIdOf } from "./job-params.ts";

export type Submission = { readonly ok: true; readonly request: SubmitRequest } | { readonly ok: false; readonly response: ApiResponse };

/** The wire size of the body when the transport passed it on, so the limit is the one the client sent. */
function bodyBytes(ctx: OpContext): number | undefined {
  const raw = ctx.request.headers["content-length"];
  return raw !== undefined && /^[0-9]{1,15}$/.test(raw) ? Number(raw) : undefined;
}

export function readSubmission(ctx: OpContext, mode: "run" | "runsync"): Submission {
  const checked = validateJobSubmit(ctx.request.body, { kind: mode, bodyBytes: bodyBytes(ctx) });
  if (!checked.ok) return { ok: false, response: invalidRequest(checked) };
  const body = ctx.request.body as JobSubmitRequest;
  const request: SubmitRequest = {
    endpointId: endpointIdOf(ctx),
    accountId: ctx.principal.accountId,
    input: checked.value.input,
    mode,
    ...(checked.value.webhook !== undefined ? { webhook: checked.value.webhook } : {}),
    ...(body.policy !== undefined ? { policy: sentPolicy(body.policy) } : {}),
  };
  return { ok: true, request };
}

function sentPolicy(p: NonNullable<JobSubmitRequest["policy"]>): NonNullable<SubmitRequest["policy"]> {
  return {
    ...(p.executionTimeout !== undefined ? { executionTimeout: p.executionTimeout } : {}),
    ...(p.ttl !== undefined ? { ttl: p.ttl } : {}),
    ...(p.lowPriority !== undefined ? { lowPriority: p.lowPriority } : {}),
  };
}
