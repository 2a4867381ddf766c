/**
 * When a refusal proves a rule. A body the suite built to break one rule may be refused for
 * something else in it (a vCPU count the flavor does not offer, a GPU type the cloud lacks), and
 * crediting that refusal to the rule is a pass for the wrong reason. So a refusal credits a rule
 * only when the same body without the rule's breaking part (its control, built by the rule: the
 * part removed or made valid, nothing else changed) is accepted by the target. A rule whose
 * breaking has more than one part (both `gpu` and `cpu` set) has one control per part, each of
 * which must be accepted. "Accepted" is a 2xx, or a refusal for capacity only (the target took
 * the body as valid and found no room). A control the target refused credits nothing: the case
 * is not judged, and the answer says why.
 *
 * A refusal whose error names the part alone (the leaves where the body and its control differ,
 * and nothing else) is the rule's without a control sent: the target said why. Controls sent are
 * remembered per run by their body, so a control sent once is not sent again.
 */
import type { CheckContext } from "../../check.ts";
import type { ClientResponse } from "../../client.ts";
import type { Exchange } from "../../recorder.ts";
import { errorText, leaves, names, valueKey } from "../../values/leaves.ts";
import { SETUP_NOT_REACHED } from "../../../reports/conformance-report.ts";

export type Credit =
  | { readonly credited: true }
  | {
      readonly credited: false;
      readonly why: string;
      /** The control the target refused, and its answer, when one was sent. */
      readonly refused?: { readonly body: unknown; readonly status: number; readonly text: string; readonly exchange: Exchange };
    };

export interface ControlSpec<B> {
  /** The rule's body without its breaking part: one per part. Empty: no control could be built. */
  readonly controls: readonly B[];
  /** Sends one control (a pod it creates is cleaned up by the sender). */
  readonly send: (body: B) => Promise<ClientResponse>;
  /** Whether an answer takes the body as valid (a 2xx, or a refusal for capacity). */
  readonly accepted: (res: ClientResponse) => boolean;
  /** What the bodies are, for the cache's key: "createPod". */
  readonly operation: string;
  /** Why no control could be built, when `controls` is empty. */
  readonly noControl?: string;
  /**
   * The refusal being judged and the body it refused: when its error names the leaves where the
   * body differs from its control, and no other leaf, the refusal is the rule's without a control
   * sent (the target said why). Left out where naming the part does not prove the rule (both
   * `gpu` and `cpu` set: an error naming the cpu's count is about the count).
   */
  readonly named?: { readonly body: unknown; readonly text: string };
}

interface Remembered {
  readonly accepted: boolean;
  readonly status: number;
  readonly text: string;
  readonly exchange: Exchange;
}

const MAX_REMEMBERED = 512;

/**
 * Whether the error text names a leaf where `body` differs from `control` (in either: a leaf
 * taken out is named as the control had it), and names no leaf where they agree.
 */
export function namesPartAlone(body: unknown, control: unknown, errorBody: string): boolean {
  const text = errorText(errorBody);
  const a = leaves(body);
  const b = leaves(control);
  const differing = new Set<string>();
  for (const [p, v] of a) if (!b.has(p) || valueKey(b.get(p)) !== valueKey(v)) differing.add(p);
  for (const p of b.keys()) if (!a.has(p)) differing.add(p);
  if (differing.size === 0) return false;
  const namedPart = [...differing].some((p) => names(text, p, a.has(p) ? a : b));
  const namedElse = [...a.keys()].some((p) => !differing.has(p) && !isAncestorOfAny(p, differing) && names(text, p, a));
  return namedPart && !namedElse;
}

/** Whether `p` lies above a differing leaf (a field holding the part): naming it is naming the part. */
const isAncestorOfAny = (p: string, set: ReadonlySet<string>): boolean => [...set].some((d) => d.startsWith(`${p}/`) || p.startsWith(`${d}/`));
const runs = new WeakMap<object, Map<string, Remembered>>();

function memory(ctx: CheckContext): Map<string, Remembered> {
  let m = runs.get(ctx.options);
  if (!m) runs.set(ctx.options, (m = new Map()));
  return m;
}

/** Whether the refusal just met may be credited to the rule: every control accepted. */
export async function refusalCredited<B>(ctx: CheckContext, spec: ControlSpec<B>): Promise<Credit> {
  if (spec.named && spec.controls.length === 1 && namesPartAlone(spec.named.body, spec.controls[0], spec.named.text)) return { credited: true };
  if (spec.controls.length === 0) return { credited: false, why: spec.noControl ?? "no body without the rule's breaking part could be built to compare with" };
  const seen = memory(ctx);
  for (const body of spec.controls) {
    const key = `${spec.operation} ${JSON.stringify(body)}`;
    let known = seen.get(key);
    if (!known) {
      const res = await spec.send(body);
      known = { accepted: spec.accepted(res), status: res.status, text: res.text, exchange: res.exchange };
      if (seen.size >= MAX_REMEMBERED) seen.delete(seen.keys().next().value as string);
      seen.set(key, known);
    }
    if (!known.accepted) {
      return {
        credited: false,
        why: `the same body without the rule's breaking part was refused too (HTTP ${known.status}), so the refusal proves nothing of the rule`,
        refused: { body, status: known.status, text: known.text, exchange: known.exchange },
      };
    }
  }
  return { credited: true };
}

/**
 * A property's count of the refusals it judged and of those it could not credit: when none was
 * judged and some were not credited, the rule is skipped as a set-up not reached (counted apart
 * from other skips), never passed.
 */
export class CreditTally {
  judged = 0;
  private readonly why = new Set<string>();

  /** A refusal (or answer) judged against the rule. */
  judgedOne(): void {
    this.judged++;
  }

  /** A refusal left unjudged, with the credit's reason. */
  notCredited(what: string, credit: Extract<Credit, { credited: false }>): void {
    if (this.why.size < 8) this.why.add(`${what}: ${credit.why}`);
  }

  /** The skip's reason when nothing was judged and some refusal went uncredited; otherwise undefined. */
  notProven(): string | undefined {
    if (this.judged > 0 || this.why.size === 0) return undefined;
    return `${SETUP_NOT_REACHED}: no refusal could be credited to the rule (${[...this.why].slice(0, 2).join("; ")})`;
  }
}
