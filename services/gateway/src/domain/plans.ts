/** The plan table of decisions.md: size limit, convert rate, enhanced cost. One place, named. */
export const PLANS = {
  free: { maxFileBytes: 5 * 1024 * 1024, convertsPerMinute: 20, enhancedCost: 3 },
  starter: { maxFileBytes: 10 * 1024 * 1024, convertsPerMinute: 60, enhancedCost: 3 },
  professional: { maxFileBytes: 25 * 1024 * 1024, convertsPerMinute: 120, enhancedCost: 2 },
  business: { maxFileBytes: 50 * 1024 * 1024, convertsPerMinute: 240, enhancedCost: 2 },
} as const;

export type PlanName = keyof typeof PLANS;
export const PLAN_NAMES = Object.keys(PLANS) as PlanName[];

export const STANDARD_COST = 1;
export const OTHER_ENDPOINTS_PER_MINUTE = 120;
export const SERVER_UPLOAD_CAP_BYTES = 60 * 1024 * 1024;
export const RATE_WINDOW_MS = 60_000;

export function isPlanName(value: string): value is PlanName {
  return (PLAN_NAMES as string[]).includes(value);
}

export function conversionCost(plan: PlanName, enhanced: boolean): number {
  return enhanced ? PLANS[plan].enhancedCost : STANDARD_COST;
}
