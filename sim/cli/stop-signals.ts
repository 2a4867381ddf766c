/**
 * The default stop signal of long-running commands (serve, handler --rp_serve_api, proxy): calls
 * `stop` on SIGINT or SIGTERM; returns the function that removes the listeners. A command another
 * cpsim process started over an IPC channel with CPSIM_STOP_WITH_PARENT=1 in its environment (the
 * embedded emulator of `cpsim load`) also stops when that channel closes: its parent gone (killed
 * by SIGTERM or SIGKILL, crashed), it does not serve on as an orphan.
 */
export const STOP_WITH_PARENT_ENV = "CPSIM_STOP_WITH_PARENT";

export function processStopSignals(stop: () => void): () => void {
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  const channel = process.env[STOP_WITH_PARENT_ENV] === "1" ? process.channel : undefined;
  if (channel !== undefined) {
    // The channel only watches the parent: it must not keep this process alive once stopped.
    channel.unref();
    process.on("disconnect", stop);
  }
  return () => {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
    if (channel !== undefined) process.off("disconnect", stop);
  };
}
