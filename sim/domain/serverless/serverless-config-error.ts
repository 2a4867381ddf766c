/**
 * A configuration or wiring mistake (an endpoint naming an unknown handler, an account id that
 * authentication never produced): a bug of the caller, so it throws, unlike user errors.
 */
import { SimError } from "../../core/index.ts";

export class ServerlessConfigError extends SimError {
  override readonly name = "ServerlessConfigError";
  constructor(message: string) {
    super(message, "CPSIM_ERR_SERVERLESS_CONFIG");
  }
}
