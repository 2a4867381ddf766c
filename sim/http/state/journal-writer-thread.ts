/**
 * The journal writer's thread (journal-writer.ts): commands come from the event loop
 * (state-journal.ts), reports go back. `writeModule` (tests only) names a module whose
 * `createWritev(dir)` replaces the file system's write, to play a full disk.
 */
import { parentPort, workerData } from "node:worker_threads";
import { JournalWriter, type WriterCommand, type WriterInit, type WritevFn } from "./journal-writer.ts";

export interface WriterThreadData extends WriterInit {
  readonly writeModule?: string;
}

const data = workerData as WriterThreadData;
const writev = data.writeModule === undefined ? undefined : ((await import(data.writeModule)) as { createWritev(dir: string): WritevFn }).createWritev(data.dir);
const port = parentPort!;
const writer = new JournalWriter(data, (report) => port.postMessage(report), writev);
port.on("message", (command: WriterCommand) => writer.handle(command));
