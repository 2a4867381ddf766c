/** A handler file that does not exist, does not load, or exports no handler: a configuration error (exit 2). */
export class HandlerLoadError extends Error {
  override readonly name = "HandlerLoadError";
  readonly code = "CPSIM_ERR_HANDLER_LOAD";
  readonly exitCode = 2;
  constructor(
    message: string,
    readonly file: string,
  ) {
    super(message);
  }
}
