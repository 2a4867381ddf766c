/**
 * `myself { id pods }` and `pod(input: {podId})`, over the caller's account only.
 *
 * Choices: `myself.pods` lists the account's pods in creation order, TERMINATED ones included
 * (desiredStatus TERMINATED) until the registry drops them, as the REST list does. `pod` answers
 * null for an unknown id and for another account's pod alike, so ids of other accounts cannot be
 * probed; null rather than an error because the official Python client returns `data.pod` as is
 * (None), which is what a script checking for a vanished pod expects.
 */
import { podObject, type PodObject } from "./pod-object.ts";
import type { PodIdInput } from "./input-types.ts";
import type { ResolverContext } from "./resolver-context.ts";

export interface UserObject {
  readonly id: string;
  /** A function, so `myself { id }` builds no pod views. */
  readonly pods: () => PodObject[];
}

export function myself(_args: unknown, ctx: ResolverContext): UserObject {
  const { platform, principal, now } = ctx;
  return { id: principal.accountId, pods: () => platform.pods.list(principal.accountId).map((p) => podObject(p, now, platform.gpuStock)) };
}

export function pod(args: { readonly input: PodIdInput }, ctx: ResolverContext): PodObject | null {
  const found = ctx.platform.pods.get(ctx.principal.accountId, args.input.podId);
  return found ? podObject(found, ctx.now, ctx.platform.gpuStock) : null;
}
