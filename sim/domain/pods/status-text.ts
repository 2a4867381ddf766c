/**
 * GraphQL `lastStatusChange`: the real platform writes a verb and the time in JavaScript's
 * Date#toString form, "Rented by User: Thu Jan 01 2026 00:00:05 GMT+0000 (Coordinated Universal
 * Time)". Built here from integers, without a Date (sim/domain is pure).
 */
import { isoFromEpochMs } from "../iso-time.ts";

const DAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Date#toString of an instant, in UTC. */
export function dateString(epochMs: number): string {
  const iso = isoFromEpochMs(epochMs);
  const days = Math.floor(epochMs / 86_400_000);
  // 1970-01-01 was a Thursday.
  const weekday = DAYS[(((days + 4) % 7) + 7) % 7];
  const month = MONTHS[Number(iso.slice(5, 7)) - 1];
  return `${weekday} ${month} ${iso.slice(8, 10)} ${iso.slice(0, 4)} ${iso.slice(11, 19)} GMT+0000 (Coordinated Universal Time)`;
}

export function statusChangeText(verb: string, epochMs: number): string {
  return `${verb}: ${dateString(epochMs)}`;
}

/** The verbs of the transitions that set lastStatusChange. */
export const STATUS_VERBS = Object.freeze({
  create: "Rented by User",
  start: "Resumed by User",
  stop: "Exited by User",
  restart: "Reset by User",
  update: "Reset by User",
  terminate: "Terminated by User",
  error: "Container failed to start",
});
