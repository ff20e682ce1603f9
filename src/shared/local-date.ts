import { GraphQLScalarType } from 'graphql';
import { LocalDateResolver } from 'graphql-scalars';

/** Distinct dates remembered as valid at most; past it the memory starts over. */
const DATES_KEPT = 10_000;
const servedDates = new Set<string>();

/**
 * graphql-scalars' LocalDate (`YYYY-MM-DD`, a real calendar day), whose answers check a date already checked only
 * once: its check builds a Date and an ISO string on every serialisation, two per statement answered, while a
 * service's period dates are a small set that repeats. Input values are checked by graphql-scalars every time.
 */
export const LocalDate = new GraphQLScalarType({
  ...LocalDateResolver.toConfig(),
  serialize(value) {
    if (typeof value === 'string' && servedDates.has(value)) return value;
    const date = LocalDateResolver.serialize(value) as string;
    if (servedDates.size >= DATES_KEPT) servedDates.clear();
    servedDates.add(date);
    return date;
  },
});
