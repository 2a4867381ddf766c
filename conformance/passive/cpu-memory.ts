/**
 * pods.create.cpu-memory-derived from traffic: "For CPU pods, memory is derived by the service from
 * the selected flavor's RAM multiplier". The CPU catalog the client read (`GET /v2/catalog/cpus`,
 * its list in or out of an envelope) gives each flavor's `ramGbPerVcpu`, read as conform reads it
 * (checks/pods/create-target-catalog.ts: a positive number, or a string of one); every pod record
 * answered after it (create, read, list, update, an action) whose `cpu` names a known flavor and
 * its `vcpuCount` then holds `memory` = vcpuCount × ramGbPerVcpu. A flavor without the multiplier,
 * or a pod without those fields, gives no verdict: the catalog's fields are choices.md's, and a
 * target that names them otherwise says nothing here. Only a catalog answered before the pod's
 * request was sent counts; the flavors kept are bounded.
 */
import { kept, type SeenExchange } from "./answer.ts";
import { BoundedMap } from "./bounded-map.ts";
import type { Operation } from "./classify.ts";
import { verdict, type Judgement, type PassiveCheck } from "./judgement.ts";

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The catalog's list: a bare array, `cpus`, or the one array member of its envelope. */
function catalogList(json: unknown): unknown[] {
  if (Array.isArray(json)) return json;
  if (!isObj(json)) return [];
  if (Array.isArray(json.cpus)) return json.cpus;
  const arrays = Object.values(json).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : [];
}

/** A flavor's GB per vCPU as conform reads it: a positive finite number, or a string of one. */
function ramOf(entry: Record<string, unknown>): number | undefined {
  const raw = typeof entry.ramGbPerVcpu === "string" ? Number(entry.ramGbPerVcpu) : entry.ramGbPerVcpu;
  return typeof raw === "number" && Number.isFinite(raw) && raw > 0 ? raw : undefined;
}

function podsOf(op: Operation, json: unknown): unknown[] {
  if (op.kind === "listPods") return isObj(json) && Array.isArray(json.pods) ? json.pods : Array.isArray(json) ? json : [];
  if (op.kind === "createPod" || op.kind === "getPod" || op.kind === "updatePod" || op.kind === "podAction") return [json];
  return [];
}

interface Flavor {
  readonly ram: number;
  readonly exchange: SeenExchange;
}

export function createCpuMemoryCheck(capacity = 1_000): PassiveCheck {
  const flavors = new BoundedMap<string, Flavor>(capacity);
  return {
    name: "cpu-memory",
    rules: [{ id: "pods.create.cpu-memory-derived", side: "target" }],
    judge({ exchange, op }) {
      const a = exchange.answer;
      if (!a || a.status < 200 || a.status >= 300 || a.truncated || a.json === undefined) return [];
      if (op.kind === "catalog" && op.what === "cpus") {
        let slim: SeenExchange | undefined;
        for (const entry of catalogList(a.json)) {
          const ram = isObj(entry) && typeof entry.id === "string" ? ramOf(entry) : undefined;
          if (ram !== undefined) flavors.set((entry as { id: string }).id, { ram, exchange: (slim ??= kept(exchange)) });
        }
        return [];
      }
      if (flavors.size === 0) return [];
      const out: Judgement[] = [];
      for (const pod of podsOf(op, a.json)) {
        const cpu = isObj(pod) ? pod.cpu : undefined;
        if (!isObj(cpu) || typeof cpu.id !== "string" || typeof cpu.vcpuCount !== "number" || !Object.hasOwn(cpu, "memory")) continue;
        const flavor = flavors.get(cpu.id);
        if (flavor === undefined || exchange.sentAt < flavor.exchange.answeredAt) continue;
        const want = cpu.vcpuCount * flavor.ram;
        const ok = cpu.memory === want;
        out.push(
          verdict(
            "pods.create.cpu-memory-derived",
            ok
              ? undefined
              : `cpu.memory ${want} GB: ${cpu.vcpuCount} vCPUs times flavor ${cpu.id}'s ${flavor.ram} GB per vCPU (GET /v2/catalog/cpus, exchange #${flavor.exchange.seq}) ("For CPU pods, memory is derived by the service from the selected flavor's RAM multiplier"); pod ${String((pod as Record<string, unknown>).id)} reports ${JSON.stringify(cpu.memory)}`,
            "target",
            ok ? undefined : [flavor.exchange],
          ),
        );
      }
      return out;
    },
  };
}
