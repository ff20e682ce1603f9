import { AppError } from '../src/shared/errors';

type Json = Record<string, unknown>;

/**
 * Typed access to a JSON request body. Like RequestParams it only checks JSON types (a string where a string is
 * expected…), names the field at fault, and refuses fields the endpoint does not know; the rules live behind the schema.
 */
export class RequestBody {
  private readonly body: Json;

  constructor(body: unknown, accepted: readonly string[]) {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) {
      throw new AppError('BAD_USER_INPUT', 'The request body must be a JSON object');
    }
    this.body = body as Json;
    const unknown = Object.keys(this.body).filter((field) => !accepted.includes(field));
    if (unknown.length > 0) {
      throw new AppError('BAD_USER_INPUT', `Unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((f) => `"${f}"`).join(', ')}: accepted are ${accepted.join(', ')}`, { accepted });
    }
  }

  private present(field: string): boolean {
    // null is a value, not an absent field: the OpenAPI document allows no null, and neither does the route.
    return this.body[field] !== undefined;
  }

  private fail(field: string, expected: string): never {
    throw new AppError('BAD_USER_INPUT', `${field} must be ${expected}, got ${JSON.stringify(this.body[field])?.slice(0, 80)}`);
  }

  string(field: string): string | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    return typeof value === 'string' ? value : this.fail(field, 'a string');
  }

  requiredString(field: string): string {
    const value = this.string(field);
    if (value === undefined) throw new AppError('BAD_USER_INPUT', `${field} is required`);
    return value;
  }

  int(field: string): number | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    return Number.isInteger(value) && Math.abs(value as number) <= 2_147_483_647 ? (value as number) : this.fail(field, 'an integer');
  }

  requiredInt(field: string): number {
    const value = this.int(field);
    if (value === undefined) throw new AppError('BAD_USER_INPUT', `${field} is required`);
    return value;
  }

  intArray(field: string): number[] | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    if (!Array.isArray(value) || !value.every((item) => Number.isInteger(item) && Math.abs(item) <= 2_147_483_647)) {
      return this.fail(field, 'an array of integers');
    }
    return value as number[];
  }

  stringArray(field: string): string[] | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) return this.fail(field, 'an array of strings');
    return value as string[];
  }

  /** An array of objects with only the given fields (their values are checked by the schema). */
  objectArray(field: string, fields: readonly string[]): Json[] | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    if (!Array.isArray(value) || !value.every((item) => item !== null && typeof item === 'object' && !Array.isArray(item))) {
      return this.fail(field, 'an array of objects');
    }
    for (const [index, item] of (value as Json[]).entries()) {
      const unknown = Object.keys(item).filter((key) => !fields.includes(key));
      if (unknown.length > 0) throw new AppError('BAD_USER_INPUT', `${field}[${index}] has unknown field "${unknown[0]}": accepted are ${fields.join(', ')}`);
    }
    return value as Json[];
  }

  bool(field: string): boolean | undefined {
    if (!this.present(field)) return undefined;
    const value = this.body[field];
    return typeof value === 'boolean' ? value : this.fail(field, 'true or false');
  }
}
