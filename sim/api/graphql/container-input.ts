/**
 * The container half of podFindAndDeployOnDemand and deployCpuPod: name, image, docker args,
 * container disk, ports (`"8888/http,22/tcp"`), env (`[{key, value}]`) and the template they may
 * come from, in createPod's terms.
 *
 * Templates. A template the caller can see (official, or the account's own) fills every field the
 * input leaves out; env merges, the input's keys winning. An unknown templateId is accepted and
 * ignored rather than refused, because the official Python client sends `templateId:
 * "runpod-ubuntu"` with every CPU pod whatever the platform's catalog holds. The Python client
 * also writes a missing image as the string "None" (`f'imageName: "{image_name}"'`); with a
 * template that names an image, "None" reads as missing.
 */
import type { Catalog, Template } from "../../catalog/index.ts";
import { PORT_PATTERN } from "../schemas/index.ts";
import type { InputProblems } from "./input-problems.ts";
import type { ContainerInput } from "./input-types.ts";

/** Where a pod volume or network volume is mounted when the input names no path (the platform's default). */
export const DEFAULT_MOUNT_PATH = "/workspace";

/** How the official Python client writes an image it was not given. */
const PYTHON_NONE = "None";

const PORT = new RegExp(PORT_PATTERN);

export interface ContainerFields {
  readonly name: string;
  readonly image: string;
  readonly args?: string;
  readonly disk?: number;
  readonly ports?: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** The template applied, or null. */
  readonly template: string | null;
  /** Pod volume size (0: none), after the template's default. */
  readonly volumeInGb: number;
  readonly volumeMountPath: string;
}

export function findTemplate(catalog: Catalog, accountId: string, id: string | null | undefined): Template | undefined {
  if (!id) return undefined;
  return catalog.templates.find((t) => t.id === id && (t.accountId === null || t.accountId === accountId));
}

/** `"8888/http, 22/tcp"` → ["8888/http", "22/tcp"], each checked against `port/protocol`. */
export function splitPorts(ports: string, problems: InputProblems): string[] {
  const entries = ports
    .split(",")
    .map((p) => p.trim())
    .filter((p) => p !== "");
  for (const entry of entries) {
    if (!PORT.test(entry)) {
      problems.add(
        "ports",
        `ports entry ${JSON.stringify(entry)} is not of the form port/protocol; send a comma-separated list such as "8888/http,22/tcp" (ports 1 to 65535, lower-case protocol).`,
      );
    }
  }
  return entries;
}

/** `[{key, value}]` → {key: value}; a null value is the empty string, a repeated key keeps its last value. */
export function envRecord(env: ContainerInput["env"], problems: InputProblems): Map<string, string> {
  const out = new Map<string, string>();
  (env ?? []).forEach((entry, i) => {
    if (entry === null) return;
    if (entry.key === "" || entry.key.includes("=")) {
      problems.add(
        `env[${i}].key`,
        `env[${i}].key is ${JSON.stringify(entry.key)}; a variable name must be non-empty and must not contain "=", e.g. {key: "HF_HOME", value: "/workspace"}.`,
      );
      return;
    }
    out.set(entry.key, entry.value ?? "");
  });
  return out;
}

/** `kind` matters for one default: a template's pod volume applies to GPU pods only (CPU pods have none). */
export function containerFields(
  input: ContainerInput,
  kind: "gpu" | "cpu",
  catalog: Catalog,
  accountId: string,
  problems: InputProblems,
): ContainerFields {
  const template = findTemplate(catalog, accountId, input.templateId);
  if (!input.name) problems.add("name", 'name is missing or empty; send a non-empty pod name, e.g. name: "my-pod".');
  // terminateAfter (Flash task pods' safety net) has no timer in the model; its form is still checked.
  if (input.terminateAfter && (input.terminateAfter.length > 64 || Number.isNaN(Date.parse(input.terminateAfter)))) {
    problems.add("terminateAfter", `terminateAfter ${JSON.stringify(input.terminateAfter.slice(0, 64))} is not a date-time; send ISO 8601, e.g. "2026-01-01T12:00:00+00:00", or leave it out.`);
  }

  const given = input.imageName ?? "";
  const image = given === "" || (given === PYTHON_NONE && template) ? (template?.image ?? "") : given;
  if (image === "") {
    problems.add(
      "imageName",
      'imageName is missing; send a container image such as "runpod/pytorch:2.4.0-py3.11-cuda12.4.1-devel-ubuntu22.04", or the templateId of a template that names one.',
    );
  }

  const disk = input.containerDiskInGb ?? template?.disk;
  if (disk !== undefined && disk < 1) {
    problems.add("containerDiskInGb", `containerDiskInGb is ${disk}; send a whole number of GB, 1 or more (the default is 50).`);
  }

  const volumeInGb = input.volumeInGb ?? (kind === "gpu" ? template?.volumeInGb : undefined) ?? 0;
  if (volumeInGb < 0) problems.add("volumeInGb", `volumeInGb is ${volumeInGb}; send 0 for no pod volume, or 10 or more GB.`);

  const env = new Map<string, string>(Object.entries(template?.env ?? {}));
  for (const [k, v] of envRecord(input.env, problems)) env.set(k, v);

  const args = input.dockerArgs ?? template?.args;
  const ports = input.ports != null ? splitPorts(input.ports, problems) : template ? [...template.ports] : undefined;
  return {
    name: input.name ?? "",
    image,
    ...(args !== undefined ? { args } : {}),
    ...(disk !== undefined ? { disk } : {}),
    ...(ports !== undefined ? { ports } : {}),
    // fromEntries defines own properties, so a key such as "__proto__" stays data (and the validator refuses it).
    env: Object.fromEntries(env),
    template: template?.id ?? null,
    volumeInGb,
    volumeMountPath: input.volumeMountPath || template?.volumeMountPath || DEFAULT_MOUNT_PATH,
  };
}
