/**
 * A load-balanced endpoint (`type: LOAD_BALANCER`, GraphQL `LB`) has no job queue: on the
 * platform its workers serve the owner's own HTTP routes at the endpoint's own host, and the
 * emulator runs no container to answer them. So its job routes do not exist: every one but
 * `health` answers 404 saying why (to its owner only: for anyone else the id stays unknown, as
 * any other account's endpoint). `health` answers, with its standing workers and no jobs.
 */
import type { Operation, OperationTable } from "../../op-context.ts";
import { problem } from "../../problem.ts";
import { respond } from "../../types.ts";
import { endpointIdOf } from "./job-params.ts";

/** The caller's own load-balanced endpoint of that id, if it is one. */
function ownLoadBalanced(ctx: Parameters<Operation>[0]): boolean {
  const id = endpointIdOf(ctx);
  const e = ctx.platform.resources.get("endpoints", id);
  return e !== undefined && e.accountId === ctx.principal.accountId && ctx.platform.resources.endpointExtra(id)?.type === "LOAD_BALANCER";
}

function refusing(op: Operation): Operation {
  return (ctx) => {
    if (!ownLoadBalanced(ctx)) return op(ctx);
    const id = endpointIdOf(ctx);
    return respond(
      problem(
        404,
        `Endpoint ${id} is load-balanced: it has no job queue, so it has no run, runsync, status, stream, cancel, retry or purge-queue routes. ` +
          "Its workers serve your own HTTP routes at the endpoint's own host, and the emulator runs no container to answer them; for jobs, make a queue-based endpoint (type QUEUE).",
      ),
    );
  };
}

/** The job operations, each refusing a load-balanced endpoint except `jobHealth`. */
export function withLoadBalancedRefusal(ops: OperationTable): OperationTable {
  return Object.freeze(Object.fromEntries(Object.entries(ops).map(([name, op]) => [name, name === "jobHealth" ? op : refusing(op)])));
}
