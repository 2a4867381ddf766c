/**
 * The client findings grouped by client (its User-Agent): an official SDK's quirks read as one
 * list, a client conformance report. Bounded: the first clients seen are kept (a client's
 * User-Agent rarely changes), later ones are counted under one name.
 */
import type { ClientFindingsRecord } from "../../reports/conformance-report.ts";
import type { Finding } from "../passive/passive-judge.ts";

const MAX_CLIENTS = 64;
const MAX_AGENT_CHARS = 200;
export const NO_AGENT = "(no User-Agent)";
export const OTHER_AGENTS = "(other clients)";

interface ClientTally {
  exchanges: number;
  findings: number;
  readonly rules: Map<string, { count: number; example: string; exchange: number }>;
}

export function agentOf(headers: Readonly<Record<string, string>>): string {
  const ua = headers["user-agent"]?.trim();
  return ua ? ua.slice(0, MAX_AGENT_CHARS) : NO_AGENT;
}

export class ClientBook {
  private readonly clients = new Map<string, ClientTally>();

  private tally(agent: string): ClientTally {
    let t = this.clients.get(agent);
    if (t === undefined) {
      if (this.clients.size >= MAX_CLIENTS) return this.tally(OTHER_AGENTS);
      t = { exchanges: 0, findings: 0, rules: new Map() };
      this.clients.set(agent, t);
    }
    return t;
  }

  exchange(headers: Readonly<Record<string, string>>): void {
    this.tally(agentOf(headers)).exchanges++;
  }

  /** Counts a finding on the client's side under its client; the target's findings are not the client's. */
  finding(f: Finding): void {
    if (f.side !== "client") return;
    const t = this.tally(agentOf(f.exchange.request.headers));
    t.findings++;
    const r = t.rules.get(f.rule.id);
    if (r) r.count++;
    else t.rules.set(f.rule.id, { count: 1, example: f.expected, exchange: f.exchange.seq });
  }

  records(): ClientFindingsRecord[] {
    return [...this.clients.entries()]
      .map(([userAgent, t]) => ({
        userAgent,
        exchanges: t.exchanges,
        findings: t.findings,
        rules: [...t.rules.entries()].map(([id, r]) => ({ id, count: r.count, example: r.example, exchange: r.exchange })).sort((a, b) => b.count - a.count || a.id.localeCompare(b.id)),
      }))
      .sort((a, b) => b.findings - a.findings || a.userAgent.localeCompare(b.userAgent));
  }
}
