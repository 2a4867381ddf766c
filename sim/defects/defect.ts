/**
 * A defect: one documented way an implementation gets one sentence of the spec wrong, as data.
 * Like TigerBeetle's fault options, a defect is a handful of small predicates and transforms
 * applied at the edges of the emulator (the request on its way in, the answer on its way out, the
 * deadline of a waiting request, the route table's body limits); it never copies a code path of
 * the model. The clean emulator never sees one: `startEmulator` wraps its backend only when
 * `defects` is non-empty.
 */
import type { Micros } from "../core/index.ts";
import type { RuleId } from "../api/rules/index.ts";
import type { ApiOutcome, ApiRequest, ApiResponse } from "../api/types.ts";
import type { BackendApiKey, BackendRoute } from "../http/backend.ts";
import type { Conventions } from "../conventions/dimensions.ts";

/** The areas of the rule catalog; every one has at least one defect. */
export const DEFECT_AREAS = [
  "pods.create",
  "pods.fields",
  "pods.update",
  "pods.actions",
  "errors",
  "graphql",
  "jobs.submit",
  "jobs.operations",
  "jobs.retention",
  "jobs.payload",
  "auth",
  "ratelimit",
  "catalog",
] as const;
export type DefectArea = (typeof DEFECT_AREAS)[number];

/** What an edge sees besides the request: where it goes, who sends it, and the defect's memory. */
export interface Edge {
  /** The operation the request routes to (routes.ts), e.g. `createPod`, `jobStatus`, `graphql`. */
  readonly op: string | undefined;
  /** Path parameters of that route (`podId`, `endpointId`, `jobId`). */
  readonly params: Readonly<Record<string, string>>;
  /** The key the request carries (Bearer, bare, or GraphQL `api_key`), if any. */
  readonly key: string | undefined;
  /** The account of that key, when it is a known key. */
  readonly account: string | undefined;
  /** Every key the emulator knows. */
  readonly keys: readonly BackendApiKey[];
  /** Virtual time of the model when the request arrived. */
  readonly now: Micros;
  /** This defect's own memory (bounded), for defects that misremember state over time. */
  readonly memory: Map<string, unknown>;
}

export interface Defect {
  /** Kebab-case, unique: what goes wrong, e.g. `create-accepts-empty-name`. */
  readonly name: string;
  readonly area: DefectArea;
  /** The one rule it breaks; its sentence comes from the rule catalog. */
  readonly rule: RuleId;
  /** What the defective emulator does, in one line. */
  readonly does: string;
  /** Rewrites the request before the model sees it. */
  readonly request?: (req: ApiRequest, at: Edge) => ApiRequest;
  /** Stands in front of the model: may answer itself, ask the model other things, or pass on. */
  readonly around?: (req: ApiRequest, at: Edge, next: (req: ApiRequest) => ApiOutcome) => ApiOutcome;
  /** Rewrites the answer, whether it comes at once or after a wait. */
  readonly response?: (res: ApiResponse, req: ApiRequest, at: Edge) => ApiResponse;
  /** Moves the deadline of a waiting request (runsync, status-sync). */
  readonly deadline?: (deadline: Micros, at: Edge) => Micros;
  /** Rewrites the route table the transport enforces body limits with. */
  readonly routes?: (routes: BackendRoute[]) => BackendRoute[];
  /**
   * Why a correct service may do the same under the lenient profile, where the spec's sentence
   * does not fix what the defect changes (it breaks only the emulator's reading, which strict
   * judges): such a defect is not observable as a violation there, so an escape under lenient is
   * counted apart from the real misses (`legal_escaped`, not `judged_escaped`). Absent: the spec
   * fixes the behaviour the defect breaks, and the lenient suite must catch it wherever its rule
   * is judged.
   */
  readonly legalUnderLenient?: string;
  /**
   * Under which conventions of the open-choice space the defect does nothing a correct service
   * would not (what it changes is answered the same there for another reason), and why; undefined
   * where it is observable. An escape there is counted with `legal_escaped`, not as a miss.
   */
  readonly unobservableUnder?: (c: Conventions) => string | undefined;
}
