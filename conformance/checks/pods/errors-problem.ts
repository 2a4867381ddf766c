// Judging a REST error answer's format lives in the passive module, which conform and proxy share.
import type { ClientResponse } from "../../client.ts";

export { mediaType, problemIssues } from "../../passive/error-body.ts";

export const isError = (res: ClientResponse): boolean => res.status >= 400;
