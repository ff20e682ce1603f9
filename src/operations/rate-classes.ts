/** Budgets of the rate limiter, from the cheapest to the dearest: reading data, searching documents, AI answers. */
export const LIMIT_CLASSES = ['reads', 'search', 'ai'] as const;
export type LimitClass = (typeof LIMIT_CLASSES)[number];

/** A request with several root fields pays the dearest budget among them. */
export function dearestClass(classes: Iterable<LimitClass>): LimitClass {
  let dearest: LimitClass = 'reads';
  for (const limitClass of classes)
    if (LIMIT_CLASSES.indexOf(limitClass) > LIMIT_CLASSES.indexOf(dearest)) dearest = limitClass;
  return dearest;
}
