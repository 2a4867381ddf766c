/** The problem+json answer of a request that failed validation (400, or 413 for a body over the limit). */
import { describeFailure, type ValidationFailure } from "../../validate/index.ts";
import { problem } from "../../problem.ts";
import type { ApiResponse } from "../../types.ts";

export function invalidRequest(failure: ValidationFailure): ApiResponse {
  const { detail, errors } = describeFailure(failure);
  return problem(failure.status, detail, { errors });
}
