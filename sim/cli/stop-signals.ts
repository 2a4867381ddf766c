/**
 * The default stop signal of long-running commands (serve, handler --rp_serve_api): calls `stop`
 * on SIGINT or SIGTERM; returns the function that removes the listeners.
 */
export function processStopSignals(stop: () => void): () => void {
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  };
}
