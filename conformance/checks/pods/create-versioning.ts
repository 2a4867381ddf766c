/**
 * versioning.v2-prefix: the REST interface and the job endpoints are served under `/v2`. Both
 * createPod (`POST /v2/pods`, with a body it must refuse, so nothing is created) and a job
 * endpoint's health (`GET /v2/<endpoint_id>/health`, on the endpoint the suite was given) must
 * be routes the target has: not 404, 405 or 501.
 */
import { registerCheck } from "../../check-registry.ts";
import { sendCreate } from "./create-pod-client.ts";

const UNROUTED = new Set([404, 405, 501]);

registerCheck(
  "versioning.v2-prefix",
  async (ctx) => {
    const rule = `("${ctx.rule.spec}")`;
    const create = await sendCreate(ctx, { json: { name: "", image: "ubuntu:22.04" } });
    if (UNROUTED.has(create.status)) {
      return ctx.fail({ expected: `POST /v2/pods served as createPod (a 4xx refusing the body, not an unknown route) ${rule}`, exchange: create.exchange });
    }
    const health = await ctx.client.request({
      method: "GET",
      url: `${ctx.target.serverless}/v2/${encodeURIComponent(ctx.target.endpoint)}/health`,
      auth: { key: "api" },
    });
    if (UNROUTED.has(health.status)) {
      return ctx.fail({
        expected: `GET /v2/${ctx.target.endpoint}/health served for the endpoint given with --endpoint ${rule}`,
        exchange: health.exchange,
      });
    }
    return undefined;
  },
  { needs: { keys: ["api"] } },
);
