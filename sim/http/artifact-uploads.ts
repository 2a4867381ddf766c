/**
 * The target of a Flash build's tarball upload: `prepareFlashArtifactUpload` hands out
 * `{origin}/flash-artifacts/{objectKey}`, and the apps client PUTs the tarball there
 * (`Content-Type: application/gzip`, its exact length, no key: the URL is the credential, as a
 * presigned URL is). The transport streams the bytes through SHA-256 without keeping them
 * (BackendRoute.rawBody); the open upload records their size and checksum.
 */
import { APP_LIMITS, ARTIFACT_PREFIX } from "../domain/resources/apps.ts";
import type { Platform } from "../domain/platform.ts";
import { problem } from "../api/problem.ts";
import type { ApiRequest, ApiResponse } from "../api/types.ts";
import type { BackendRoute } from "./backend.ts";

/** Object keys are `flash/{appId}/{uuid}.tar.gz` (AppsStore.prepareUpload). */
export const ARTIFACT_ROUTE: BackendRoute = { method: "PUT", pattern: `${ARTIFACT_PREFIX}flash/:appId/:file`, bodyLimit: APP_LIMITS.tarballBytes, rawBody: true };

export function isArtifactPath(path: string): boolean {
  return path.startsWith(ARTIFACT_PREFIX);
}

export function receiveArtifact(platform: Platform, request: ApiRequest): ApiResponse {
  const objectKey = request.path.slice(ARTIFACT_PREFIX.length);
  const body = request.body as { bytes?: unknown; sha256?: unknown } | undefined;
  if (typeof body?.bytes !== "number" || typeof body.sha256 !== "string") return problem(400, "send the tarball as the PUT body");
  const out = platform.resources.apps.receiveUpload(objectKey, { bytes: body.bytes, sha256: body.sha256 }, platform.now);
  if (!out.ok) return problem(out.reason === "not-found" ? 404 : 400, out.message);
  // S3 answers a PUT with the object's ETag; here it is the SHA-256 of what came.
  return { status: 200, headers: { etag: `"${body.sha256}"` } };
}
