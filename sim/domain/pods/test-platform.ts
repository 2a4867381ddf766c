/**
 * A small platform for the pod tests: engine, GPU and CPU stock, the registry, and every
 * invariant of stock and pods in one check. Not used outside tests.
 */
import { Engine } from "../../core/index.ts";
import type { Catalog } from "../../catalog/index.ts";
import { CpuStock, GpuStock, type GpuStockOptions } from "../stock/index.ts";
import { smallCatalog } from "../stock/test-catalog.ts";
import { checkPodsAndStock } from "../invariants/pod-stock-checkers.ts";
import { PodRegistry, type PodOptions } from "./index.ts";

export interface TestPlatform {
  readonly engine: Engine;
  readonly catalog: Catalog;
  readonly stock: GpuStock;
  readonly cpuStock: CpuStock;
  readonly pods: PodRegistry;
  /** Every invariant's violations, now. */
  violations(): string[];
}

export function testPlatform(
  seed: number | string,
  options: { pods?: PodOptions; stock?: GpuStockOptions; catalog?: Catalog } = {},
): TestPlatform {
  const engine = new Engine({ seed });
  const catalog = options.catalog ?? smallCatalog();
  const stock = new GpuStock(engine, catalog, engine.rng.fork("stock"), { outsideIntensity: 0, ...options.stock });
  const cpuStock = new CpuStock(catalog);
  const pods = new PodRegistry(engine, catalog, engine.rng.fork("pods"), { gpu: stock, cpu: cpuStock }, options.pods);
  return {
    engine,
    catalog,
    stock,
    cpuStock,
    pods,
    violations() {
      return checkPodsAndStock({ stock, cpuStock, pods, catalog, now: engine.now });
    },
  };
}
