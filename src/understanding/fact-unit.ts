/** How a fact's value is meant: it decides which written forms may stand for it (its own module: metrics and grounding both need it). */
export type FactUnit = 'money' | 'money_per_share' | 'shares' | 'fraction' | 'points' | 'multiple' | 'days';
