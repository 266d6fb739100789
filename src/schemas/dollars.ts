/** Amounts that admins type as numbers of dollars (event prices, coupons), in one shape. */
import { z } from 'zod';

/** The largest amount an admin may set (a typo guard, not a business rule). */
const MAX_DOLLARS = 100_000;

/** A dollar amount with at most two decimals, 0 to MAX_DOLLARS. */
export const Dollars = z
  .number()
  .min(0)
  .max(MAX_DOLLARS)
  .refine((v) => Math.abs(v * 100 - Math.round(v * 100)) < 1e-6, 'at most 2 decimals (whole cents)');
