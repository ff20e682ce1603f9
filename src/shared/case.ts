// TypeORM's own helper, so column names and REST keys are derived by one and the same rule.
import { snakeCase } from 'typeorm/util/StringUtils';

export { snakeCase };

// REST answers convert the same few hundred field names over and over; keys of stored JSON could be anything, so
// the memory is bounded.
const snakeNames = new Map<string, string>();
const MAX_REMEMBERED_NAMES = 5_000;

/** snakeCase, remembered. */
function snakeName(name: string): string {
  let snake = snakeNames.get(name);
  if (snake === undefined) {
    snake = snakeCase(name);
    if (snakeNames.size < MAX_REMEMBERED_NAMES) snakeNames.set(name, snake);
  }
  return snake;
}

/** Sets a property of a copy as JSON.parse would: a key `__proto__` is an own property, not the prototype. */
function setOwn(copy: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__')
    Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true });
  else copy[key] = value;
}

/** Copies a JSON-like value with every object key in snake_case (REST speaks snake_case, GraphQL camelCase). */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value === null || typeof value !== 'object') return value;
  // A loop rather than entries/map/fromEntries: every REST answer is copied through here.
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value))
    setOwn(copy, snakeName(key), snakeCaseKeys((value as Record<string, unknown>)[key]));
  return copy;
}

/** Keys whose values name a field, metric, check or statement kind: REST writes those values in snake_case too. */
const NAME_VALUED_KEYS = new Set(['field', 'metric', 'check', 'statement']);

/**
 * Copies REST data with every key in snake_case, and the names held as values under NAME_VALUED_KEYS too (a
 * citation's `field: "net_income"`, a data-quality `check: "year_equals_sum_of_quarters"`), so REST never shows a
 * GraphQL name.
 */
export function restCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(restCase);
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const inner = (value as Record<string, unknown>)[key];
    setOwn(
      copy,
      snakeName(key),
      NAME_VALUED_KEYS.has(key) && typeof inner === 'string' ? snakeName(inner) : restCase(inner),
    );
  }
  return copy;
}
