import { AppError } from '../src/shared/errors';
import { parseCanonicalId } from '../src/shared/canonical-id';

const INT32_MAX = 2_147_483_647;

/**
 * Typed access to path and query parameters. It only converts text to the GraphQL variable types; the rules
 * (ranges, defaults, period grammar) live behind the schema so REST and GraphQL answer alike.
 */
export class RequestParams {
  private readonly query = new Map<string, string>();

  constructor(
    private readonly path: Record<string, string>,
    search: URLSearchParams,
    accepted: readonly string[],
  ) {
    for (const [name, value] of search) {
      if (!accepted.includes(name)) {
        throw new AppError('BAD_USER_INPUT', unknownParameterMessage(name, accepted), { accepted });
      }
      if (this.query.has(name)) throw new AppError('BAD_USER_INPUT', `Query parameter "${name}" is given more than once`);
      this.query.set(name, value);
    }
  }

  /** An id from the path, e.g. the company id, written canonically (`1`, never `01`, ` 1` or `+1`). */
  pathInt(name: string): number {
    const value = parseCanonicalId(this.path[name]);
    // Ids start at 1: a 0 is a malformed id, not a missing resource.
    if (value === null) throw new AppError('BAD_USER_INPUT', `${name} must be a positive integer in decimal digits (no sign, spaces or leading zeros), got "${this.path[name]}"`, { field: name });
    return value;
  }

  /** An optional whole number from the query string; absent means "use the default". */
  queryInt(name: string): number | undefined {
    const raw = this.query.get(name);
    if (raw === undefined) return undefined;
    const value = toInt(raw);
    if (value === null) throw new AppError('BAD_USER_INPUT', `${name} must be an integer, got "${raw}"`);
    return value;
  }

  /** An optional whole number from the query string that must lie in [min, max] (a cap the catalog declares). */
  queryIntBetween(name: string, min: number, max: number): number | undefined {
    const value = this.queryInt(name);
    if (value !== undefined && (value < min || value > max)) {
      throw new AppError('BAD_USER_INPUT', `${name} must be from ${min} to ${max}, got ${value}`, { field: name });
    }
    return value;
  }

  /** An optional value of the query string that must be one of `accepted` (any case); returned in upper case, as GraphQL enums are. */
  queryEnum(name: string, accepted: readonly string[]): string | undefined {
    const raw = this.queryString(name);
    if (raw === undefined) return undefined;
    if (!accepted.includes(raw.toLowerCase())) {
      throw new AppError('BAD_USER_INPUT', `${name} must be one of ${accepted.join(', ')}, got "${raw.slice(0, 40)}"`, { field: name, accepted });
    }
    return raw.toUpperCase();
  }

  /** Whether the query string has the parameter at all. */
  has(name: string): boolean {
    return this.query.has(name);
  }

  /** An optional true/false from the query string. */
  queryBool(name: string): boolean | undefined {
    const raw = this.query.get(name)?.trim().toLowerCase();
    if (raw === undefined || raw === '') return undefined;
    if (raw === 'true' || raw === '1') return true;
    if (raw === 'false' || raw === '0') return false;
    throw new AppError('BAD_USER_INPUT', `${name} must be true or false, got "${this.query.get(name)}"`);
  }

  /** An optional string from the query string; empty counts as absent. */
  queryString(name: string): string | undefined {
    const raw = this.query.get(name)?.trim();
    return raw ? raw : undefined;
  }
}

function toInt(raw: string): number | null {
  if (!/^-?\d{1,10}$/.test(raw.trim())) return null;
  const value = Number(raw);
  return Math.abs(value) <= INT32_MAX ? value : null;
}

function unknownParameterMessage(name: string, accepted: readonly string[]): string {
  return accepted.length === 0
    ? `Unknown query parameter "${name}": this endpoint takes none`
    : `Unknown query parameter "${name}": accepted are ${accepted.join(', ')}`;
}
