/**
 * An account id the limiter was not built with. Authentication resolves accounts before the
 * limiter runs, so this is a wiring bug, not a user error: it throws.
 */
import { SimError } from "../../core/index.ts";

export class UnknownAccountError extends SimError {
  override readonly name = "UnknownAccountError";
  constructor(readonly accountId: string) {
    super(`unknown account ${JSON.stringify(accountId)}`, "CPSIM_ERR_UNKNOWN_ACCOUNT");
  }
}
