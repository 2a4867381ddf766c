/** Every operation of the route table, by op name: the table PlatformApi dispatches on. */
import type { OperationTable } from "./op-context.ts";
import { restOperations } from "./ops/rest/index.ts";
import { jobOperations } from "./ops/jobs/index.ts";
import { graphqlOperations } from "./graphql/index.ts";
import { metaOperations } from "./ops/meta.ts";

export const operations: OperationTable = {
  ...restOperations,
  ...jobOperations,
  ...graphqlOperations,
  ...metaOperations,
};
