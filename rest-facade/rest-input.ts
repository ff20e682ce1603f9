import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020';
import { AppError } from '../src/shared/errors';
import { snakeCase } from '../src/shared/case';
import { takesBody, type JsonSchema, type RestDeclaration } from '../src/operations/catalog';

/**
 * A route's input (path parameters, query parameters or body) read and validated against the one JSON Schema its
 * declaration gives, and refused in REST's words: the field as the caller wrote it, what it accepts, what it got.
 */

const INT32_MIN = -2_147_483_648;
const INT32_MAX = 2_147_483_647;

const ajv = new Ajv2020({ allErrors: false, validateFormats: false, strict: true, verbose: true });

type Json = Record<string, unknown>;
type ObjectSchema = JsonSchema & { properties: Record<string, JsonSchema> };

const EMPTY_INPUT: ObjectSchema = { type: 'object', additionalProperties: false, properties: {} };

/** The `format` parameter of a route that can answer CSV. */
const FORMAT_PARAMETER: JsonSchema = {
  enum: ['json', 'csv'],
  default: 'json',
  description: 'csv: the data as text/csv (as does Accept: text/csv)',
};

/** A route's whole input schema: its declared input, plus `format` where it answers CSV. */
export function inputSchema(rest: RestDeclaration): ObjectSchema {
  const declared = rest.input ?? EMPTY_INPUT;
  return rest.csv ? { ...declared, properties: { ...declared.properties, format: FORMAT_PARAMETER } } : declared;
}

/** What a path parameter must be, in words. */
const pathKind = (schema: JsonSchema | undefined) =>
  schema?.type === 'integer' && schema.minimum === 1 ? 'a positive integer' : kindOf(schema);

/**
 * Where each input field travels: path parameters in the path; the rest in the query string, or for a POST or PATCH in
 * the body (but `format`, which asks for a CSV answer, stays in the query string).
 */
export function splitInput(rest: RestDeclaration): { path: string[]; query: string[]; body: string[] } {
  const path = pathParameterNames(rest.path);
  const others = Object.keys(inputSchema(rest).properties).filter((name) => !path.includes(name));
  if (!takesBody(rest.method)) return { path, query: others, body: [] };
  const inQuery = (name: string) => rest.csv === true && name === 'format';
  return { path, query: others.filter(inQuery), body: others.filter((name) => !inQuery(name)) };
}

/** The names of a path's parameters (`/v1/companies/:id` → id). */
export function pathParameterNames(path: string): string[] {
  return [...path.matchAll(/:(\w+)/g)].map(([, name]) => name);
}

/** Every integer is a GraphQL Int: the schema used for validation says so, the documented one need not. */
function withInt32Bounds(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withInt32Bounds);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [
      key,
      key === 'enum' || key === 'default' || key === 'examples' ? value : withInt32Bounds(value),
    ]),
  ) as Json;
  if (copy.type === 'integer') {
    copy.minimum ??= INT32_MIN;
    copy.maximum ??= INT32_MAX;
  }
  return copy;
}

/**
 * The declared member of an enum that a value names in any case, or in camelCase as GraphQL spells it
 * (`netMargin` → `net_margin`); other values are left as they are.
 */
function canonicalEnums(schema: JsonSchema | undefined, value: unknown): unknown {
  if (!schema || value === null || value === undefined) return value;
  if (Array.isArray(schema.enum) && typeof value === 'string') {
    const members = schema.enum.filter((member: unknown): member is string => typeof member === 'string');
    return (
      members.find((member) => member.toLowerCase() === value.toLowerCase()) ??
      members.find((member) => member === snakeCase(value)) ??
      value
    );
  }
  if (Array.isArray(value)) return value.map((item) => canonicalEnums(schema.items as JsonSchema | undefined, item));
  if (typeof value === 'object' && schema.properties) {
    const properties = schema.properties as Record<string, JsonSchema>;
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, canonicalEnums(properties[key], inner)]),
    );
  }
  return value;
}

/**
 * A query or path parameter's text as the JSON type its schema wants; text that is not one stays text (and fails).
 * Empty text is an absent value, but where a number is wanted: there it is a mistake.
 */
function fromText(schema: JsonSchema | undefined, raw: string): unknown {
  const text = raw.trim();
  if (schema?.type === 'integer' || schema?.type === 'number')
    return /^-?\d{1,10}(\.\d+)?$/.test(text) ? Number(text) : raw;
  if (text === '') return undefined;
  if (schema?.type === 'boolean') {
    const lower = text.toLowerCase();
    if (lower === 'true' || lower === '1') return true;
    if (lower === 'false' || lower === '0') return false;
  }
  return text;
}

/**
 * A path parameter's text: an integer only when written canonically (`1`, never `01`, ` 1`, `1 ` or `+1`), so that
 * one resource has one path; other text stays text and is refused as not an integer.
 */
function fromPathText(schema: JsonSchema | undefined, raw: string): unknown {
  if (schema?.type === 'integer') return /^(0|-?[1-9]\d{0,9})$/.test(raw) ? Number(raw) : raw;
  return fromText(schema, raw);
}

const got = (value: unknown) => JSON.stringify(value)?.slice(0, 80);

/** What a value of a schema is, in words: "an integer", "an array of strings". */
function kindOf(schema: JsonSchema | undefined): string {
  switch (schema?.type) {
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'string':
      return 'a string';
    case 'boolean':
      return 'true or false';
    case 'object':
      return 'an object';
    case 'array': {
      const items = kindOf(schema.items as JsonSchema | undefined);
      return items === 'a value' ? 'an array' : `an array of ${items.replace(/^an? /, '')}s`;
    }
    default:
      return 'a value';
  }
}

/** `/messages/0/content` → `messages[0].content`. */
function fieldName(pointer: string, extra?: string): string {
  const keys = pointer
    .split('/')
    .slice(1)
    .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (extra !== undefined) keys.push(extra);
  return keys.map((key, index) => (/^\d+$/.test(key) ? `[${key}]` : `${index === 0 ? '' : '.'}${key}`)).join('');
}

function valueAt(input: unknown, pointer: string): unknown {
  return pointer
    .split('/')
    .slice(1)
    .reduce<unknown>((value, key) => (value as Json | undefined)?.[key], input);
}

function bad(message: string, details?: Json): AppError {
  return new AppError('BAD_USER_INPUT', message, details);
}

/** The first failure ajv found, said in REST's words. */
function restError(error: ErrorObject, input: Json): AppError {
  const schema = error.parentSchema as JsonSchema | undefined;
  const value = valueAt(input, error.instancePath);
  const field = fieldName(error.instancePath);
  const details = { field };
  switch (error.keyword) {
    case 'required': {
      const missing = fieldName(error.instancePath, String(error.params.missingProperty));
      return bad(`${missing} is required`, { field: missing });
    }
    case 'additionalProperties': {
      const accepted = Object.keys((schema?.properties as Json | undefined) ?? {});
      return bad(
        `${field} has unknown field "${String(error.params.additionalProperty)}": accepted are ${accepted.join(', ')}`,
        { field, accepted },
      );
    }
    case 'type': {
      // An item of an array of scalars that is not one: the array is what the caller got wrong.
      const parent = error.instancePath.replace(/\/\d+$/, '');
      if (parent !== error.instancePath && Array.isArray(valueAt(input, parent))) {
        const arrayField = fieldName(parent);
        return bad(
          `${arrayField} must be ${kindOf({ type: 'array', items: schema })}, got ${got(valueAt(input, parent))}`,
          { field: arrayField },
        );
      }
      return bad(`${field} must be ${kindOf(schema)}, got ${got(value)}`, details);
    }
    case 'enum': {
      const accepted = (schema?.enum as unknown[]).map(String);
      // Values are taken in any case: an all-lower-case list is echoed in lower case.
      const echoed =
        typeof value === 'string' && accepted.every((member) => member === member.toLowerCase())
          ? value.toLowerCase()
          : value;
      const parent = error.instancePath.replace(/\/\d+$/, '');
      if (parent !== error.instancePath && Array.isArray(valueAt(input, parent))) {
        const arrayField = fieldName(parent);
        return bad(`Unknown value ${got(echoed)} in ${arrayField}: accepted are ${accepted.join(', ')}`, {
          field: arrayField,
          accepted,
        });
      }
      return bad(`${field} must be one of ${accepted.join(', ')}, got ${got(echoed)}`, { field, accepted });
    }
    case 'minimum':
    case 'maximum': {
      // A bound GraphQL's Int sets, not the route: the value is not an integer it can take.
      if (error.params.limit === INT32_MIN || error.params.limit === INT32_MAX)
        return bad(`${field} must be an integer, got ${got(value)}`, details);
      const { minimum, maximum } = schema as { minimum?: number; maximum?: number };
      const whole = schema?.type === 'integer' ? 'a whole number' : 'a number';
      if (minimum !== undefined && maximum !== undefined && minimum !== INT32_MIN && maximum !== INT32_MAX)
        return bad(`${field} must be ${whole} from ${minimum} to ${maximum}, got ${got(value)}`, details);
      return bad(
        `${field} must be ${error.keyword === 'minimum' ? `at least ${minimum}` : `at most ${maximum}`}, got ${got(value)}`,
        details,
      );
    }
    case 'minLength':
      return bad(
        error.params.limit === 1
          ? `${field} must not be empty`
          : `${field} must be at least ${error.params.limit} characters`,
        details,
      );
    case 'maxLength':
      return bad(`${field} must be at most ${error.params.limit} characters`, details);
    case 'minItems':
    case 'maxItems': {
      const { minItems, maxItems } = schema as { minItems?: number; maxItems?: number };
      const count = Array.isArray(value) ? value.length : 0;
      if (error.keyword === 'minItems' && minItems === 1) return bad(`${field} must not be empty`, details);
      if (minItems !== undefined && maxItems !== undefined)
        return bad(`${field} must hold ${minItems} to ${maxItems} items, got ${count}`, details);
      return bad(
        `${field} must hold ${error.keyword === 'minItems' ? `at least ${minItems}` : `at most ${maxItems}`} items, got ${count}`,
        details,
      );
    }
    default:
      return bad(`${field || 'The input'} ${error.message ?? 'is not valid'}`, details);
  }
}

function unknownParameter(name: string, accepted: string[]): AppError {
  return accepted.length === 0
    ? bad(`Unknown query parameter "${name}": this endpoint takes none`, { accepted })
    : bad(`Unknown query parameter "${name}": accepted are ${accepted.join(', ')}`, { accepted });
}

/** Reads a route's input: compiled once per route, run on every request. */
export class RestInput {
  private readonly schema: ObjectSchema;
  private readonly validate: ValidateFunction;
  private readonly pathNames: string[];
  private readonly queryNames: string[];
  private readonly bodyNames: string[];

  constructor(private readonly rest: RestDeclaration) {
    this.schema = inputSchema(rest);
    this.validate = ajv.compile(withInt32Bounds(this.schema) as JsonSchema);
    this.pathNames = pathParameterNames(rest.path);
    const split = splitInput(rest);
    this.queryNames = split.query;
    this.bodyNames = split.body;
  }

  /** Whether the route takes a JSON body. */
  get hasBody(): boolean {
    return takesBody(this.rest.method);
  }

  /** The validated input, by REST names; absent parameters are absent. Throws BAD_USER_INPUT naming the field. */
  read(path: Record<string, string>, search: URLSearchParams, body: unknown): Json {
    const input: Json = {};
    for (const [name, raw] of search) {
      if (!this.queryNames.includes(name)) throw unknownParameter(name, this.queryNames);
      if (Object.prototype.hasOwnProperty.call(input, name))
        throw bad(`Query parameter "${name}" is given more than once`);
      const value = fromText(this.schema.properties[name], raw);
      if (value !== undefined) input[name] = value;
    }
    if (this.hasBody) Object.assign(input, this.bodyFields(body));
    for (const name of this.pathNames) input[name] = fromPathText(this.schema.properties[name], path[name]);
    const canonical = canonicalEnums(this.schema, input) as Json;
    if (!this.validate(canonical)) {
      const error = this.validate.errors![0];
      const name = error.instancePath.split('/')[1];
      if (this.pathNames.includes(name))
        throw bad(`${name} must be ${pathKind(this.schema.properties[name])}, got "${path[name]}"`, { field: name });
      throw restError(error, canonical);
    }
    return canonical;
  }

  private bodyFields(body: unknown): Json {
    if (body === null || typeof body !== 'object' || Array.isArray(body))
      throw bad('The request body must be a JSON object');
    const unknown = Object.keys(body).filter((field) => !this.bodyNames.includes(field));
    if (unknown.length > 0) {
      const named = unknown.map((field) => `"${field}"`).join(', ');
      throw bad(`Unknown field${unknown.length > 1 ? 's' : ''} ${named}: accepted are ${this.bodyNames.join(', ')}`, {
        accepted: this.bodyNames,
      });
    }
    return body as Json;
  }
}
