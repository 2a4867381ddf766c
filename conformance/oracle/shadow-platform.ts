/**
 * The shadow platform of one stateful run: for every pod and job the suite makes on the target,
 * a pod or job of the platform model (shadow-models.ts) stepped alongside it. Each command the
 * suite sends is applied to the shadow too when the target accepted it; each state the target is
 * read in is adopted by the shadow where the spec allows several (a pod already RUNNING, or still
 * STARTING: the shadow steps its own clock to get there, or is brought there afresh when its own
 * moves pass it by). The shadow's state is what the oracle's sets are computed from. Ids are the
 * model's own: `shadowId` maps a target id to its shadow's. Every shadow runs on its own manual
 * clock, seeded from the run's seed and the entity's order, so a run's shadows are reproducible.
 */
import { POD_STATUSES, type PodStatus } from "../../sim/domain/pods/index.ts";
import { JOB_STATUSES, type Health, type JobStatus } from "../../sim/domain/serverless/index.ts";
import { ruleSeed } from "../seeds.ts";
import type { JobCommand, PodOperation } from "./oracle.ts";
import { JobModel, PodModel, type PodKind } from "./shadow-models.ts";

const POD_STATES: readonly string[] = POD_STATUSES;
const JOB_STATES: readonly string[] = JOB_STATUSES;
const isSuccess = (status: number) => status >= 200 && status < 300;

export class ShadowPlatform {
  private readonly pods = new Map<string, PodModel>();
  /** Each job's model, and whether a retry was applied to it (a shadow brought to a state afresh keeps that). */
  private readonly jobs = new Map<string, { model: JobModel; retried: boolean }>();
  private made = 0;

  constructor(readonly seed: number) {}

  private nextSeed(): number {
    // Derived as a rule's seed is: the n-th shadow of a run always draws the same.
    return ruleSeed(this.seed, `shadow ${this.made++}`);
  }

  // ---- pods

  /** A pod the target created (2xx): its shadow is created too, PROVISIONING, until a read says otherwise. */
  podCreated(targetId: string, kind: PodKind): void {
    this.pods.set(targetId, new PodModel(this.nextSeed(), kind));
  }

  /** The shadow's status of a pod, or undefined for a pod the shadow does not know. */
  podStatus(targetId: string): string | undefined {
    return this.pods.get(targetId)?.status;
  }

  shadowId(targetId: string): string | undefined {
    return this.pods.get(targetId)?.id ?? this.jobs.get(targetId)?.model.id;
  }

  /** An operation the target answered: the shadow is sent it too when the target accepted it (a refusal moves nothing). */
  podSent(targetId: string, op: PodOperation, httpStatus: number): void {
    const m = this.pods.get(targetId);
    if (!m || !isSuccess(httpStatus)) return;
    // Where the model would refuse what the target accepted (lenient allows it), the next read tells where the pod went.
    if (op === "patch") m.patch(true);
    else m.action(op === "delete" ? "terminate" : op);
  }

  /** The target read the pod in `status`: the shadow follows. */
  podObserved(targetId: string, status: string): void {
    const m = this.pods.get(targetId);
    if (!m || m.status === status || !POD_STATES.includes(status)) return;
    for (let i = 0; i < 8 && m.status !== status && (m.status === "PROVISIONING" || m.status === "STARTING"); i++) if (!m.step()) break;
    if (m.status !== status) this.pods.set(targetId, PodModel.inStatus(status as PodStatus, m.kind, this.nextSeed()));
  }

  // ---- jobs

  /** A job the target accepted, in `status` (IN_QUEUE unless its answer said otherwise). */
  jobSubmitted(targetId: string, status: string): void {
    this.jobs.set(targetId, { model: new JobModel(this.nextSeed()), retried: false });
    this.jobObserved(targetId, status);
  }

  jobStatus(targetId: string): string | undefined {
    return this.jobs.get(targetId)?.model.status;
  }

  /** A cancel or retry the target answered: applied to the shadow when the target accepted it. */
  jobSent(targetId: string, command: JobCommand, httpStatus: number): void {
    const j = this.jobs.get(targetId);
    if (!j || !isSuccess(httpStatus)) return;
    if (command === "cancel") j.model.cancel();
    else if (j.model.retry() !== undefined) j.retried = true;
  }

  /** The target read the job in `status`: the shadow follows (stepping its own clock, else brought there afresh). */
  jobObserved(targetId: string, status: string): void {
    const j = this.jobs.get(targetId);
    if (!j || j.model.status === status || !JOB_STATES.includes(status)) return;
    if (j.model.stepTo(status)) return;
    j.model = JobModel.inStatus(status as JobStatus, this.nextSeed());
  }

  /** The shadow's health of one job: what it adds to the endpoint's counters. */
  jobHealth(targetId: string): Health | undefined {
    const j = this.jobs.get(targetId);
    if (!j) return undefined;
    const h = j.model.health();
    // The model counts a retried job once in `retried` (its flag, which a shadow brought to a state afresh lacks).
    return j.retried ? { ...h, jobs: { ...h.jobs, retried: Math.max(h.jobs.retried, 1) } } : h;
  }
}
