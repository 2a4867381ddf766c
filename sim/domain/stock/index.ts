// GPU and CPU stock: who holds every host's GPUs and vCPUs, and the views derived from it.
export { GpuStock } from "./gpu-stock.ts";
export type { GpuStockOptions, StockScope, LowestPrice, GpuAvailability, GpuStockTotals, FreedListener } from "./gpu-stock.ts";
export { CpuStock } from "./cpu-stock.ts";
export type { CpuLease, CpuScope, CpuAvailability } from "./cpu-stock.ts";
export { DEFAULT_OUTSIDE_OPTIONS, resolveOutsideOptions } from "./outside-demand.ts";
export type { OutsideDemandOptions, ResolvedOutsideOptions } from "./outside-demand.ts";
export { STOCK_STATUS_THRESHOLDS, stockStatusFor, gpuCountSteps } from "./stock-status.ts";
export type { StockStatus } from "./stock-status.ts";
export { chooseHost } from "./choose-host.ts";
export { LeaseError, StockOptionError } from "./errors.ts";
