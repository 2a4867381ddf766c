/**
 * createPod's `templateId` (choices: the spec says remaining container settings "may be copied
 * from a template response"; newer official clients send `templateId` and let the platform copy
 * them). A template the caller may use (official, public or its own) fills image, args, disk,
 * ports, env and registry where the body leaves them out (env merges, the body's keys winning),
 * and the pod records the template's id. `startSsh`, which the same clients always send, is read
 * and ignored when it is a boolean (the model runs no SSH daemon). Everything else is the
 * unchanged createPod validation, which runs on the completed body.
 */
import type { Platform } from "../../../domain/platform.ts";
import { usableTemplate } from "../../../domain/resources/index.ts";
import { problem } from "../../problem.ts";
import type { ApiResponse } from "../../types.ts";

export type TemplateApplied = { readonly ok: true; readonly body: unknown; readonly template: string | null } | { readonly ok: false; readonly response: ApiResponse };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export function applyTemplate(body: unknown, platform: Platform, accountId: string): TemplateApplied {
  if (!isObject(body)) return { ok: true, body, template: null };
  const has = (k: string) => Object.hasOwn(body, k);
  if (!has("templateId") && !(has("startSsh") && typeof body.startSsh === "boolean")) return { ok: true, body, template: null };
  const { templateId, ...rest } = body;
  if (typeof rest.startSsh === "boolean") delete rest.startSsh;
  if (!has("templateId")) return { ok: true, body: rest, template: null };
  const template = typeof templateId === "string" ? usableTemplate(platform, accountId, templateId) : undefined;
  if (template === undefined) {
    const detail = `templateId ${JSON.stringify(templateId)} names no template you can use; list them with GET /v2/templates, or leave templateId out and send image.`;
    return { ok: false, response: problem(422, detail, { errors: [`/templateId: ${detail}`] }) };
  }
  const filled: Record<string, unknown> = {
    image: template.image,
    args: template.args,
    disk: template.disk,
    ports: [...template.ports],
    ...(template.registry !== null ? { registry: template.registry } : {}),
    ...rest,
    env: { ...template.env, ...(isObject(rest.env) ? rest.env : {}) },
  };
  if (has("env") && !isObject(rest.env)) filled.env = rest.env; // let the schema name the bad value
  return { ok: true, body: filled, template: template.id };
}
