/**
 * The few plain HTTP calls made around a run, never during it (setup, verification, teardown):
 * one request at a time through undici, JSON read leniently, and a helper for bounded batches.
 */
import { request } from "undici";
import type { LoadTarget } from "./target.ts";

export const FINAL_JOB_STATUSES = new Set(["COMPLETED", "FAILED", "CANCELLED", "TIMED_OUT"]);

export async function call(method: "GET" | "POST" | "DELETE", url: string, key: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const res = await request(url, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body !== undefined ? { "content-type": "application/json" } : {}) },
    body: body !== undefined ? JSON.stringify(body) : undefined,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const text = await res.body.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, json };
}

export function jobUrl(target: LoadTarget, op: string, id?: string): string {
  return `${target.serverlessUrl.replace(/\/+$/, "")}/v2/${encodeURIComponent(target.endpoint)}/${op}${id ? `/${encodeURIComponent(id)}` : ""}`;
}

export async function inBatches<T, R>(items: readonly T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += size) out.push(...(await Promise.all(items.slice(i, i + size).map(fn))));
  return out;
}
