/**
 * Whether an answer shows that a job's data is gone (expired, dropped, removed). choices.md has
 * the emulator answer 404, which the strict profile requires; the spec only says results expire,
 * so the lenient profile also takes any other 4xx, or a job record left without its input and
 * output ("Job inputs and outputs are not kept longer than 30 minutes").
 */
import type { CheckContext } from "../../../check.ts";
import type { ClientResponse } from "../../../client.ts";
import { asJob, has } from "./job-body.ts";
import { is2xx } from "./job-session.ts";

export function showsGone(ctx: CheckContext, res: ClientResponse): boolean {
  if (res.status === 404) return true;
  const strict = ctx.options.profile === "strict";
  if (res.status >= 400 && res.status < 500) return !strict;
  if (strict || !is2xx(res)) return false;
  const job = asJob(res.json);
  return job !== undefined && !has(job, "output") && !has(job, "input");
}

export function goneText(ctx: CheckContext): string {
  return ctx.options.profile === "strict"
    ? "404 (docs/choices.md: an expired result answers 404)"
    : "the job gone: a 4xx, or a record without its input and output";
}
