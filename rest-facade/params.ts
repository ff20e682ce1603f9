import { AppError } from '../src/shared/errors';

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

  /** A whole number from the path, e.g. the company id. */
  pathInt(name: string): number {
    const value = toInt(this.path[name]);
    if (value === null) throw new AppError('BAD_USER_INPUT', `${name} must be a positive integer, got "${this.path[name]}"`);
    return value;
  }

  /** An optional whole number from the query string; absent means "use the default". */
  queryInt(name: string): number | undefined {
    const raw = this.query.get(name);
    if (raw === undefined) return undefined;
    const value = toInt(raw, true);
    if (value === null) throw new AppError('BAD_USER_INPUT', `${name} must be an integer, got "${raw}"`);
    return value;
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

function toInt(raw: string | undefined, allowNegative = false): number | null {
  if (raw === undefined || !(allowNegative ? /^-?\d{1,10}$/ : /^\d{1,10}$/).test(raw.trim())) return null;
  const value = Number(raw);
  return Math.abs(value) <= INT32_MAX ? value : null;
}

function unknownParameterMessage(name: string, accepted: readonly string[]): string {
  return accepted.length === 0
    ? `Unknown query parameter "${name}": this endpoint takes none`
    : `Unknown query parameter "${name}": accepted are ${accepted.join(', ')}`;
}
