// TypeORM's own helper, so column names and REST keys are derived by one and the same rule.
import { snakeCase } from 'typeorm/util/StringUtils';

export { snakeCase };

/** Copies a JSON-like value with every object key in snake_case (REST speaks snake_case, GraphQL camelCase). */
export function snakeCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCaseKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [snakeCase(key), snakeCaseKeys(inner)]));
  }
  return value;
}
