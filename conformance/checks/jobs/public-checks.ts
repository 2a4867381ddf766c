/**
 * Public model endpoints (spec, rule 9): the same paths with a model slug as the endpoint id,
 * and an image model whose runsync, given a prompt, width and height, returns an output with an
 * `image_url` ("In an image-generation endpoint the output is an array of objects carrying an
 * image (URL or base64 data URI in image_url) and a seed integer"). An image in a PNG data URI
 * (or behind a URL that serves a PNG) must have the size asked for.
 *
 * The slug is the target's `imageModel` fact (a --target-profile, a model catalog, or the
 * well-known slug whose health answers; CPSIM_IMAGE_MODEL still overrides it). A target that
 * serves none is skipped, naming the fact; a 404 for a slug that was only assumed (the default)
 * is a skip too, but a 404 for a slug the target itself showed or the user named is a failure.
 */
import * as fc from "fast-check";
import { PNG } from "pngjs";
import type { CheckContext, CheckOutcome } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import { missingFact } from "../../target-facts/index.ts";
import { schemaErrors } from "../support/schema.ts";
import { FINISH_BUDGET_MS, STEP_MS } from "./support/budgets.ts";
import { ACTIVE_STATUSES, asJob, isObject, show } from "./support/job-body.ts";
import { is2xx, type JobSession } from "./support/job-session.ts";
import { property, runsFor } from "./support/property.ts";
import { scenario, violated, withSession } from "./support/with-session.ts";

/** The eight bytes every PNG starts with (PNG specification, 5.2). */
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;

/** The size of a PNG, decoded by pngjs in full (the suite judges with a library, not with the emulator's encoder's twin). */
export function decodePngSize(bytes: Uint8Array): { width: number; height: number } {
  const png = PNG.sync.read(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  return { width: png.width, height: png.height };
}

/** The model's slug and whether it was named (by the user or the target), or undefined when the target serves none. */
export function imageModel(ctx: CheckContext): { slug: string; named: boolean } | undefined {
  const env = process.env["CPSIM_IMAGE_MODEL"]?.trim();
  if (env) return { slug: env, named: true };
  const fact = ctx.facts.imageModel;
  return fact.value === null ? undefined : { slug: fact.value, named: fact.source !== "default" };
}

const noModel = (ctx: CheckContext): string => missingFact("imageModel", ctx.facts.imageModel.evidence);

/** The skip reason when the model is simply not served by a foreign target. */
function absentModel(ctx: CheckContext, res: ClientResponse): string | undefined {
  const model = imageModel(ctx);
  if (!model || res.status !== 404 || model.named || ctx.controlApi) return undefined;
  return missingFact("imageModel", `the target answers 404 for the assumed slug "${model.slug}"`);
}

const prompt = (w: number, h: number) => `cpsim conformance: a ${w}x${h} test image`;

export async function checkPublicSamePaths(ctx: CheckContext): Promise<CheckOutcome | void> {
  const model = imageModel(ctx);
  if (!model) return ctx.skip(noModel(ctx));
  const { slug } = model;
  return scenario(
    ctx,
    async (session) => {
      const input = { prompt: prompt(256, 256), width: 256, height: 256 };
      const { res, id } = await session.run(input);
      const absent = absentModel(ctx, res);
      if (absent) return ctx.skip(absent);
      if (!is2xx(res) || id === undefined || asJob(res.json)?.status !== "IN_QUEUE") {
        violated(session, res.exchange, `POST /v2/${slug}/run answering like any endpoint's run: 2xx {id, status: "IN_QUEUE"}; got ${res.status} ${show(res.json)}`);
      }
      const end = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
      if (!is2xx(end.res) || schemaErrors("Job", end.res.json).length) {
        violated(session, end.res.exchange, `GET /v2/${slug}/status/{id} answering the Job record; got ${end.res.status} ${show(end.res.json)}`);
      }
      const health = await session.health();
      const errors = is2xx(health) ? schemaErrors("HealthResponse", health.json) : [`status ${health.status}`];
      if (errors.length) violated(session, health.exchange, `GET /v2/${slug}/health answering the health record; ${errors.join("; ")}`);
      return undefined;
    },
    slug,
  );
}

/** The images of an output: an array of objects, or one object, carrying `image_url`. */
function imagesOf(output: unknown): readonly Readonly<Record<string, unknown>>[] | undefined {
  const items = Array.isArray(output) ? output : [output];
  if (items.length === 0 || !items.every((i) => isObject(i) && typeof i["image_url"] === "string")) return undefined;
  return items as Readonly<Record<string, unknown>>[];
}

/** The PNG bytes an image_url holds or points at; undefined for another format. */
async function pngBytes(session: JobSession, url: string): Promise<Uint8Array | string | undefined> {
  const data = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(url);
  if (data) {
    if (data[1] !== "image/png") return undefined;
    if (!data[2]) return "a data URI without ;base64";
    return new Uint8Array(Buffer.from(data[3] as string, "base64"));
  }
  if (!/^https?:\/\//.test(url)) return `neither a data URI nor an http(s) URL`;
  // The suite's client reads text; an image needs its bytes. A URL that cannot be fetched from
  // here (egress, signed links) is not judged: the spec lets the image live anywhere.
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(session.ctx.options.timeoutMs) });
    if (!res.ok) return undefined;
    const bytes = new Uint8Array(await res.arrayBuffer());
    return PNG_SIGNATURE.every((b, i) => bytes[i] === b) ? bytes : undefined;
  } catch {
    return undefined;
  }
}

export async function checkPublicImageOutput(ctx: CheckContext): Promise<CheckOutcome | void> {
  const model = imageModel(ctx);
  if (!model) return ctx.skip(noModel(ctx));
  const { slug } = model;
  const strict = ctx.options.profile === "strict";
  const side = fc.integer({ min: 4, max: 16 }).map((n) => n * 64);
  let absent: string | undefined;
  const outcome = await property(
    ctx,
    fc.tuple(side, side),
    ([width, height]) =>
      withSession(
        ctx,
        async (session) => {
          if (absent) return;
          const input = { prompt: prompt(width, height), width, height };
          let { res, id, job } = await session.runsync(input, { query: { wait: 120_000 } });
          absent = absentModel(ctx, res);
          if (absent) return;
          if (!is2xx(res) || !job) violated(session, res.exchange, `a 2xx answer to runsync on the public model "${slug}" with ${show(input)}; got ${res.status} ${show(res.json)}`);
          if (ACTIVE_STATUSES.has(job.status) && id !== undefined) {
            const end = await session.untilFinal(id, { budgetMs: FINISH_BUDGET_MS, stepMs: STEP_MS });
            fc.pre(end.met && end.job !== undefined);
            res = end.res;
            job = end.job!;
          }
          const images = imagesOf(job["output"]);
          if (job.status !== "COMPLETED" || !images) {
            violated(session, res.exchange, `a COMPLETED job whose output carries \`image_url\` (an array of {image_url, seed}, or one such object) for ${show(input)}; got ${show(job, 300)}`);
          }
          for (const image of images) {
            if (Array.isArray(job["output"]) && (strict || image["seed"] !== undefined) && !Number.isSafeInteger(image["seed"])) {
              violated(session, res.exchange, `each image with a \`seed\` integer; got ${show(image["seed"])}`);
            }
            const png = await pngBytes(session, image["image_url"] as string);
            if (typeof png === "string") violated(session, res.exchange, `an image_url that is a base64 data URI or a URL of the image; ${png}`);
            if (png === undefined) {
              if (strict) violated(session, res.exchange, `a PNG image (the emulator's image_url is data:image/png;base64,...); got ${show(image["image_url"], 60)}`);
              continue;
            }
            let header: { width: number; height: number };
            try {
              header = decodePngSize(png);
            } catch (err) {
              violated(session, res.exchange, `a valid PNG in image_url; ${(err as Error).message}`);
            }
            if (header.width !== width || header.height !== height) {
              violated(session, res.exchange, `an image of the size asked, ${width}x${height}; got a ${header.width}x${header.height} PNG`);
            }
          }
        },
        slug,
      ),
    { numRuns: runsFor(ctx, 2) },
  );
  if (absent) return ctx.skip(absent);
  return outcome;
}
