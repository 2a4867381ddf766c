/**
 * The JSON body POSTed to a job's `webhook` URL when the job becomes final. The spec leaves the
 * payload open ("not shown"); the emulator sends the final Job record exactly as `status` shows
 * it at that moment (id, status, delayTime, executionTime, output or error, workerId), which is
 * what the real platform's webhooks carry. The backend calls it with each drained
 * WebhookEntry's `job`.
 */
import type { JobView } from "../../../domain/serverless/index.ts";
import type { Job } from "../../schemas/index.ts";
import { jobRecord } from "./job-record.ts";

export function webhookBody(job: JobView): Job {
  return jobRecord(job);
}
