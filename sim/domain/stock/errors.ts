/** Typed errors of the stock: programming errors of callers, never "no capacity" (that is a value). */
import { SimError } from "../../core/index.ts";

/** A lease released twice, or one this stock never granted. */
export class LeaseError extends SimError {
  override readonly name = "LeaseError";
  constructor(
    message: string,
    readonly hostId: string,
  ) {
    super(message, "CPSIM_ERR_LEASE");
  }
}

/** An option outside its domain (a negative intensity, a zero hold time ...). */
export class StockOptionError extends SimError {
  override readonly name = "StockOptionError";
  constructor(
    readonly option: string,
    readonly value: unknown,
    readonly expected: string,
  ) {
    super(`stock option ${option} must be ${expected}, got ${String(value)}`, "CPSIM_ERR_STOCK_OPTION");
  }
}
