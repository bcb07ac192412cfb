import type { TransactionOptions } from './types.js';

/** What starts a transaction with these options, as one simple-protocol query (one round trip). */
export function beginStatement(options: TransactionOptions): string {
  // Reads that must match a seq (list + seq) need one snapshot; writes serialise on row locks.
  const begin = options.readOnly ? 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY' : 'BEGIN';
  return options.genericPlans ? `${begin}; SET LOCAL plan_cache_mode = force_generic_plan` : begin;
}
