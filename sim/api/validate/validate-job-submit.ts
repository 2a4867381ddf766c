/**
 * Validation of a `run` or `runsync` body: `{input: object}` plus, per choices.md, `webhook`,
 * `policy` and `s3Config`; anything else, or a value out of range, answers 400. A body over
 * the payload limit answers 413 and is not inspected further, as a server refuses it unread.
 */
import type { JobPolicy } from "../schemas/index.ts";
import { EXECUTION_TIMEOUT_RANGE, JOB_TTL_RANGE, JobSubmitRequest } from "../schemas/index.ts";
import { schemaViolations, type IssueRoute } from "./schema-violations.ts";
import { sharedValidator } from "./shared-validator.ts";
import { fail, type Validated } from "./violation.ts";

/** 1 MB read as 1 MiB, the more generous reading (the lenient profile accepts either). */
export const MEGABYTE = 1024 * 1024;
export const PAYLOAD_LIMITS = { run: 10 * MEGABYTE, runsync: 20 * MEGABYTE } as const;

export interface JobSubmitOptions {
  readonly kind: "run" | "runsync";
  /** The payload limit in bytes; defaults to 10 MB for run and 20 MB for runsync. */
  readonly maxBytes?: number;
  /** The body's size on the wire, when the caller knows it; else its JSON's UTF-8 length. */
  readonly bodyBytes?: number;
}

/** A valid submission with the policy's defaults applied. */
export interface NormalizedJobSubmit {
  readonly input: Readonly<Record<string, unknown>>;
  readonly webhook?: string;
  readonly policy: Required<JobPolicy>;
  readonly s3Config?: Readonly<Record<string, unknown>>;
}

const ROUTES: readonly IssueRoute[] = [
  { keyword: "additionalProperties", ruleId: "jobs.submit.unknown-key" },
  { path: /^\/input$/, ruleId: "jobs.submit.input-object" },
  { path: /^$/, ruleId: "jobs.submit.input-object" },
  { path: /^\/webhook$/, ruleId: "jobs.submit.webhook-url" },
  { path: /^\/policy\/executionTimeout$/, ruleId: "jobs.submit.policy-execution-timeout" },
  { path: /^\/policy\/ttl$/, ruleId: "jobs.submit.policy-ttl" },
  { ruleId: "jobs.submit.field-type" },
];

const ROOT_HINT = 'a JSON object such as {"input": {"prompt": "hello"}}';

function utf8Length(body: unknown): number {
  return new TextEncoder().encode(JSON.stringify(body) ?? "").length;
}

export function validateJobSubmit(body: unknown, options: JobSubmitOptions): Validated<NormalizedJobSubmit> {
  const maxBytes = options.maxBytes ?? PAYLOAD_LIMITS[options.kind];
  const bytes = options.bodyBytes ?? utf8Length(body);
  if (bytes > maxBytes) {
    return fail([
      {
        ruleId: options.kind === "run" ? "jobs.payload.run-limit" : "jobs.payload.runsync-limit",
        path: "",
        message: `The ${options.kind} body is ${bytes} bytes, over the ${maxBytes}-byte limit; send a smaller input, for example a URL to the data instead of the data.`,
      },
    ]);
  }
  const issues = sharedValidator().issues(JobSubmitRequest.$id as string, body);
  if (issues.length > 0) return fail(schemaViolations(issues, ROUTES, { rootHint: ROOT_HINT }));
  const b = body as JobSubmitRequest;
  const policy: Required<JobPolicy> = {
    executionTimeout: b.policy?.executionTimeout ?? EXECUTION_TIMEOUT_RANGE.default,
    ttl: b.policy?.ttl ?? JOB_TTL_RANGE.default,
    lowPriority: b.policy?.lowPriority ?? false,
  };
  return {
    ok: true,
    value: {
      input: b.input,
      policy,
      ...(b.webhook !== undefined ? { webhook: b.webhook } : {}),
      ...(b.s3Config !== undefined ? { s3Config: b.s3Config } : {}),
    },
  };
}
