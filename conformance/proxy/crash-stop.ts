/**
 * The proxy's last line: an error nothing caught (an uncaught exception, an unhandled rejection)
 * stops it as a signal does, so the reports are written before it exits, instead of the process
 * dying with the traffic unreported. Returns the function that removes the listeners.
 */
export function processCrashes(stop: (err: unknown) => void): () => void {
  const onError = (err: unknown) => stop(err);
  process.on("uncaughtException", onError);
  process.on("unhandledRejection", onError);
  return () => {
    process.off("uncaughtException", onError);
    process.off("unhandledRejection", onError);
  };
}
