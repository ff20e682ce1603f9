import { isDeepStrictEqual } from 'node:util';
import {
  GraphQLNonNull,
  getNamedType,
  getNullableType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { snakeCase } from '../src/shared/case';
import { ERROR_STATUS } from '../src/shared/app-error';
import type { RestRoute } from './routes';
import { inputSchema, splitInput } from './rest-input';
import { takesBody } from '../src/operations/catalog';

/**
 * The OpenAPI 3.1 document of /v1 (GET /v1/openapi.json). Response schemas are derived from the stored GraphQL
 * operation of each route and the schema's types, so the document cannot drift from what the routes return; request
 * parameters and bodies come from each route's declared input schema.
 */

type JsonSchema = Record<string, unknown>;

const SCALARS: Record<string, JsonSchema> = {
  Int: { type: 'integer' },
  Float: { type: 'number' },
  String: { type: 'string' },
  ID: { type: 'string' },
  Boolean: { type: 'boolean' },
  DateTimeISO: { type: 'string', format: 'date-time' },
  LocalDate: { type: 'string', format: 'date' },
};

/**
 * Component names that differ from the GraphQL type's: REST names the company profile apart from the list item
 * (the same GraphQL type, more fields), and a few types read better without their GraphQL suffix.
 */
const DATA_SCHEMA_NAMES: Readonly<Record<string, string>> = {
  GetCompany: 'CompanyProfile',
  CreateCompany: 'CompanyProfile',
  UpdateCompany: 'CompanyProfile',
  GetDocument: 'Document',
};
const TYPE_SCHEMA_NAMES: Readonly<Record<string, string>> = {
  CashFlowStatement: 'CashFlow',
  SearchHit: 'SearchResult',
  FinancialPeriod: 'Period',
  ValueSource: 'Provenance',
  QualityCheck: 'StatementCheck',
  DataQualitySummary: 'DataQualityCheck',
  IngestDocumentResult: 'IngestedDocument',
  // The document as ingestion answers it (no passages); `Document` is the one GET /v1/documents/:id reads.
  Document: 'StoredDocument',
};

/**
 * The named schemas of the document (`components.schemas`): each GraphQL object or enum type a route returns is
 * named once, so a generated client has an `IncomeStatement` to import. Two different selections of one type under
 * one name would make the name lie: that stops the build (give the route its own name in DATA_SCHEMA_NAMES).
 */
class NamedSchemas {
  readonly schemas: Record<string, JsonSchema> = {};

  ref(name: string, schema: JsonSchema): JsonSchema {
    const existing = this.schemas[name];
    if (existing && !isDeepStrictEqual(existing, schema))
      throw new Error(`OpenAPI: two different schemas would be named ${name}`);
    this.schemas[name] = schema;
    return { $ref: `#/components/schemas/${name}` };
  }
}

function nullable(schema: JsonSchema): JsonSchema {
  return { anyOf: [schema, { type: 'null' }] };
}

function nonNull(schema: JsonSchema): JsonSchema {
  return (schema.anyOf as JsonSchema[] | undefined)?.[0] ?? schema;
}

type Fragments = ReadonlyMap<string, FragmentDefinitionNode>;

/** The fields selected on an object type: its own, and those of fragments (inline or named) that apply to it. */
function selectedFields(
  selections: SelectionSetNode | undefined,
  type: GraphQLObjectType,
  fragments: Fragments,
): FieldNode[] {
  const applies = (name: string | undefined) =>
    !name || name === type.name || type.getInterfaces().some((i) => i.name === name);
  return (selections?.selections ?? []).flatMap((selection): FieldNode[] => {
    if (selection.kind === Kind.FIELD) return selection.name.value === '__typename' ? [] : [selection];
    const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
    return fragment && applies(fragment.typeCondition?.name.value)
      ? selectedFields(fragment.selectionSet, type, fragments)
      : [];
  });
}

interface Selected {
  type: GraphQLOutputType;
  selections: SelectionSetNode | undefined;
  fragments: Fragments;
}

/**
 * JSON Schema of a GraphQL output type as selected (keys in snake_case, as REST sends them). Object and enum types
 * become named schemas; `name` names the outermost object type when its GraphQL name would not do.
 */
function outputSchema(named: NamedSchemas, { type, selections, fragments }: Selected, name?: string): JsonSchema {
  const inner = getNullableType(type) as GraphQLOutputType;
  let schema: JsonSchema;
  if (isListType(inner)) {
    schema = { type: 'array', items: outputSchema(named, { type: inner.ofType, selections, fragments }, name) };
  } else if (isObjectType(inner)) {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const selection of selectedFields(selections, inner, fragments)) {
      const field = inner.getFields()[selection.name.value];
      const key = snakeCase(selection.alias?.value ?? selection.name.value);
      const property = outputSchema(named, { type: field.type, selections: selection.selectionSet, fragments });
      properties[key] = field.description ? { ...property, description: field.description } : property;
      // A field under @include/@skip is there only when asked for.
      if (!selection.directives?.length) required.push(key);
    }
    const object = {
      type: 'object',
      ...(inner.description ? { description: inner.description } : {}),
      properties,
      required,
      additionalProperties: false,
    };
    schema = named.ref(name ?? TYPE_SCHEMA_NAMES[inner.name] ?? inner.name, object);
  } else if (isEnumType(inner)) {
    schema = named.ref(inner.name, { type: 'string', enum: inner.getValues().map((value) => value.name) });
  } else {
    schema = isScalarType(inner) ? (SCALARS[inner.name] ?? {}) : {};
  }
  return isNonNullType(type) ? schema : nullable(schema);
}

/** Follows a data path (field names) into a route's operation result; returns the type and selections found there. */
function descend(schema: GraphQLSchema, document: DocumentNode, dataPath: readonly string[]): Selected {
  const operation = document.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  ) as OperationDefinitionNode;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const root =
    operation.operation === 'mutation'
      ? schema.getMutationType()
      : operation.operation === 'subscription'
        ? schema.getSubscriptionType()
        : schema.getQueryType();
  let type: GraphQLOutputType = root as GraphQLOutputType;
  let selections: SelectionSetNode | undefined = operation.selectionSet;
  for (const name of dataPath) {
    const objectType = getNamedType(type);
    const node: SelectionNode | undefined = selections?.selections.find(
      (s) => s.kind === Kind.FIELD && s.name.value === name,
    );
    if (!isObjectType(objectType) || !node || node.kind !== Kind.FIELD)
      throw new Error(`OpenAPI: no field ${name} in ${operation.name?.value}`);
    type = objectType.getFields()[name].type;
    selections = node.selectionSet;
  }
  return { type, selections, fragments };
}

/**
 * The schema of each event a route streams, by event name (the fields its operation selects on the event's type),
 * and `ChatEvent`-like union of them all: `{event, data}` as an SSE reader sees one event.
 */
function eventSchemas(
  named: NamedSchemas,
  schema: GraphQLSchema,
  route: RestRoute,
  { selections, fragments }: Selected,
): Record<string, JsonSchema> {
  return Object.fromEntries(
    Object.entries(route.events ?? {}).map(([typeName, name]) => {
      const type = schema.getType(typeName);
      if (!isObjectType(type)) throw new Error(`OpenAPI: the event type ${typeName} is not an object type`);
      return [name, outputSchema(named, { type: new GraphQLNonNull(type), selections, fragments })] as const;
    }),
  );
}

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  description: 'Every failure: the one error envelope',
  required: ['success', 'error'],
  additionalProperties: false,
  properties: {
    success: { const: false },
    error: {
      type: 'object',
      required: ['code', 'message'],
      additionalProperties: false,
      properties: {
        code: { $ref: '#/components/schemas/ErrorCode' },
        message: { type: 'string' },
        details: { $ref: '#/components/schemas/ErrorDetails' },
      },
    },
  },
};

const ERROR_DETAILS: JsonSchema = {
  type: 'object',
  description:
    'More about a failure: `field` names the input at fault when one is, `accepted` the values it takes; other keys by code',
  properties: {
    field: {
      type: 'string',
      description: 'The parameter or body field at fault (a path such as messages[0].role inside a body)',
    },
    accepted: { type: 'array', items: { type: 'string' }, description: 'The values or forms the field accepts' },
  },
  additionalProperties: true,
};

const ERRORS: Record<string, string> = {
  400: 'Invalid input (BAD_USER_INPUT) or malformed request (BAD_REQUEST)',
  401: 'Missing, invalid, expired or revoked credentials (UNAUTHENTICATED)',
  403: 'Role too low, or a cookie-authenticated write without the CSRF header (FORBIDDEN)',
  404: 'Unknown company, period, conversation or route (NOT_FOUND)',
  405: 'Method not allowed (METHOD_NOT_ALLOWED), with an Allow header',
  408: 'Headers not received within 20 s, or the whole request within 60 s (REQUEST_TIMEOUT); the connection is closed',
  413: 'Body too large (PAYLOAD_TOO_LARGE)',
  414: 'URL longer than 8,192 characters (URI_TOO_LONG)',
  415: 'Content-Type is not application/json (UNSUPPORTED_MEDIA_TYPE)',
  429: 'Rate limit exceeded (RATE_LIMITED), with Retry-After',
  431: 'Request headers too large (BAD_REQUEST); the connection is closed',
  500: 'A bug (INTERNAL_SERVER_ERROR): the message carries a request id, the log the detail',
  502: 'The AI or embedding provider failed (UPSTREAM_ERROR)',
  503: 'Database unavailable, or all AI slots busy (SERVICE_UNAVAILABLE), with Retry-After',
  504: 'The AI or embedding provider did not answer in time (UPSTREAM_TIMEOUT)',
};

const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': {
    description: 'The budget of this route class: `<limit>;w=<window seconds>`',
    schema: { type: 'string' },
  },
  RateLimit: { description: 'What is left: `limit=<n>, remaining=<n>, reset=<seconds>`', schema: { type: 'string' } },
};

const RETRY_AFTER = { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } };

/** The headers of each error response that has some: when to retry, and (429) the budget that ran out. */
const ERROR_HEADERS: Record<string, Record<string, unknown>> = {
  429: { 'Retry-After': RETRY_AFTER, ...RATE_LIMIT_HEADERS },
  503: { 'Retry-After': RETRY_AFTER },
};

/** How a route that can answer CSV says so: a vendor extension beside its one JSON answer, so generated clients type JSON. */
const CSV_ANSWER = {
  mediaType: 'text/csv',
  description:
    'With format=csv (or Accept: text/csv): RFC 4180 with a header row, one row per item (one for a single object), the scalar fields as columns; a page\u2019s total in X-Total-Count',
};

const PAGE_META: JsonSchema = {
  type: 'object',
  description: 'Where a page sits in the whole list',
  required: ['total', 'limit', 'offset'],
  additionalProperties: false,
  properties: { total: { type: 'integer' }, limit: { type: 'integer' }, offset: { type: 'integer' } },
};

const errorRefs = (codes: number[]) =>
  Object.fromEntries(codes.map((code) => [String(code), { $ref: `#/components/responses/Error${code}` }]));
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const envelope = (data: JsonSchema, meta?: JsonSchema) => ({
  type: 'object',
  required: ['success', 'data', ...(meta ? ['meta'] : [])],
  additionalProperties: false,
  properties: { success: { const: true }, data, ...(meta ? { meta } : {}) },
});

/** Where the document says the service is: the origin it is served from (a client passes its own base URL). */
export const OPENAPI_SERVERS = [
  { url: '/', description: 'The service that serves this document (its origin, e.g. http://localhost:8080)' },
];

/**
 * A statement route answers several periods, newest first, with `type` or `limit`: an array of what its operation
 * selects under `statements`.
 */
function historyPathOf(route: RestRoute): string[] | undefined {
  const [root, field] = route.declaration.name.split('.');
  return route.input?.properties.limit && field ? [root, 'statements', field] : undefined;
}

/**
 * An input's schema with its default told in the description rather than as `default`: generators (openapi-typescript)
 * make a field with a default required, though a caller may leave it out; the service applies the default itself.
 */
function withDefaultDescribed(schema: JsonSchema): JsonSchema {
  if (!('default' in schema)) return schema;
  const { default: value, ...rest } = schema;
  const said = `Default ${JSON.stringify(value)}.`;
  return { ...rest, description: typeof rest.description === 'string' ? `${rest.description}. ${said}` : said };
}

/** The path and query parameters of a route, and its body, from its one input schema. */
function requestOf(route: RestRoute): { parameters: JsonSchema[]; body?: JsonSchema } {
  const schema = inputSchema(route);
  const { path, query, body } = splitInput(route);
  const required = (schema.required as string[] | undefined) ?? [];
  const parameters = [
    ...path.map((name) => ({ name, in: 'path', required: true, schema: schema.properties[name] })),
    ...query.map((name) => ({
      name,
      in: 'query',
      required: required.includes(name),
      schema: withDefaultDescribed(schema.properties[name]),
    })),
  ];
  if (!takesBody(route.method)) return { parameters };
  const fields = Object.fromEntries(body.map((name) => [name, withDefaultDescribed(schema.properties[name])]));
  return {
    parameters,
    body: { ...schema, required: required.filter((name) => body.includes(name)), properties: fields },
  };
}

/**
 * The many-period answer of a statement route under its own name (`IncomeStatementHistory`: an array, newest first),
 * beside the one-period answer, so a generated client tells them apart with `Array.isArray` and maps the list.
 */
function historySchema(named: NamedSchemas, one: JsonSchema, items: JsonSchema): JsonSchema {
  const name = String(one.$ref).slice('#/components/schemas/'.length);
  return named.ref(`${name}History`, {
    type: 'array',
    description: `${name} of several periods, newest first (with type or limit)`,
    items,
  });
}

/**
 * A route that streams events: the union of its events as an event-stream reader sees each one (`event` the SSE
 * event name, `data` its parsed JSON), named `<Operation>Event` (ChatEvent).
 */
function eventUnion(named: NamedSchemas, operation: string, events: Record<string, JsonSchema>): JsonSchema {
  return named.ref(`${operation}Event`, {
    description:
      'One Server-Sent Event of the stream: `event` is its name, `data` its JSON; `done` or `error` is the last',
    oneOf: Object.entries(events).map(([name, data]) => ({
      type: 'object',
      required: ['event', 'data'],
      additionalProperties: false,
      properties: { event: { const: name }, data },
    })),
  });
}

/** The OpenAPI 3.1 document for the routes. */
export function buildOpenApi(
  schema: GraphQLSchema,
  routes: Array<{ route: RestRoute; document: DocumentNode }>,
  publicReads: boolean,
): JsonSchema {
  const named = new NamedSchemas();
  named.ref('ErrorCode', {
    type: 'string',
    description: 'The stable code of a failure (the HTTP status follows from it)',
    enum: Object.keys(ERROR_STATUS),
  });
  named.ref('Error', ERROR_ENVELOPE);
  named.ref('ErrorDetails', ERROR_DETAILS);
  named.ref('PageMeta', PAGE_META);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, document } of routes) {
    const path = route.path.replace(/:(\w+)/g, '{$1}');
    const { parameters, body } = requestOf(route);
    const selected = descend(schema, document, [...route.data.split('.'), ...(route.page ? ['items'] : [])]);
    const content: Record<string, unknown> = {};
    if (route.events) {
      const events = eventSchemas(named, schema, route, selected);
      // Without streaming the answer is the `done` event's data; streamed, a sequence of the events.
      content['application/json'] = { schema: envelope(events.done) };
      content['text/event-stream'] = {
        schema: {
          ...eventUnion(named, route.operation, events),
          description: 'A stream of these events (Accept: text/event-stream or "stream": true)',
        },
      };
    } else {
      // A value the route 404s without is never null in a success.
      const one = nonNull(outputSchema(named, selected, DATA_SCHEMA_NAMES[route.operation]));
      // A route that also answers several periods: that, or an array of what it selects at its history path.
      const history =
        historyPathOf(route) && nonNull(outputSchema(named, descend(schema, document, historyPathOf(route)!)));
      const data = history ? { oneOf: [one, historySchema(named, one, history)] } : one;
      content['application/json'] = { schema: envelope(data, route.meta ? ref('PageMeta') : undefined) };
    }
    const { role, rateClass } = route.declaration;
    const open = role === 'viewer' && publicReads;
    // Every status a route can answer: a bad key is a 401 even where no key is needed; 408, 414 and 431 come from the
    // HTTP layer (a slow client, URL and headers too long), 503 when the database is away, 429 on every route.
    const failures = [400, 401, 404, 405, 408, 414, 429, 431, 500, 503];
    // 403: a role too low, or a cookie-authenticated POST without the CSRF header.
    if (!open || takesBody(route.method)) failures.push(403);
    if (takesBody(route.method)) failures.push(413, 415);
    if (rateClass !== 'reads') failures.push(502, 504);
    const responses = {
      [String(route.status ?? 200)]: {
        description: 'Success',
        headers: RATE_LIMIT_HEADERS,
        content,
        ...(route.csv ? { 'x-csv': CSV_ANSWER } : {}),
      },
      ...(route.declaration.name === 'ingestDocument'
        ? { 200: { description: 'Already stored: the existing document', content } }
        : {}),
      ...errorRefs(failures.sort()),
    };
    const operation = {
      operationId: route.operation,
      summary: route.summary,
      description: `Needs the ${role} role${open ? ' (open to anonymous callers while PUBLIC_READS is on)' : ''}; rate class ${rateClass}. GraphQL operation: ${route.operation}.`,
      security: open
        ? [{}, { apiKey: [] }, { bearer: [] }, { session: [] }]
        : [{ apiKey: [] }, { bearer: [] }, { session: [] }],
      parameters,
      ...(body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: named.ref(`${route.operation}Request`, body) } },
            },
          }
        : {}),
    };
    paths[path] = {
      ...paths[path],
      [route.method.toLowerCase()]: { ...operation, responses },
      // HEAD answers as GET does, headers and status, without a body.
      ...(route.method === 'GET'
        ? {
            head: {
              ...operation,
              operationId: `${route.operation}Head`,
              responses: Object.fromEntries(
                Object.entries(responses).map(([status]) => [status, { description: `As GET, without a body` }]),
              ),
            },
          }
        : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Financial insights service',
      version: '1',
      description:
        'REST facade over the GraphQL API (/graphql). Every success is `{success: true, data, meta?}` with snake_case keys; every failure the error envelope.',
    },
    servers: OPENAPI_SERVERS,
    paths: { ...paths, ...authPaths(named) },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
        bearer: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'An access token from POST /v1/auth/token',
        },
        clientBasic: {
          type: 'http',
          scheme: 'basic',
          description: 'Token endpoint only: HTTP Basic with any client_id and the API key as client_secret',
        },
        session: {
          type: 'apiKey',
          in: 'cookie',
          name: 'fis_session',
          description: 'Set by POST /v1/auth/session; writes also need the X-CSRF-Token header',
        },
      },
      schemas: named.schemas,
      responses: Object.fromEntries(
        Object.entries(ERRORS).map(([code, description]) => [
          `Error${code}`,
          {
            description,
            ...(ERROR_HEADERS[code] ? { headers: ERROR_HEADERS[code] } : {}),
            content: { 'application/json': { schema: ref('Error') } },
          },
        ]),
      ),
    },
  };
}

const ROLE: JsonSchema = { type: 'string', enum: ['viewer', 'analyst', 'admin'] };

const OAUTH_ERROR: JsonSchema = {
  type: 'object',
  description: 'An OAuth 2.0 error (RFC 6749 §5.2)',
  required: ['error', 'error_description'],
  additionalProperties: false,
  properties: {
    error: {
      type: 'string',
      examples: [
        'invalid_request',
        'invalid_client',
        'unsupported_grant_type',
        'invalid_scope',
        'temporarily_unavailable',
      ],
    },
    error_description: { type: 'string' },
  },
};

function authPaths(named: NamedSchemas): Record<string, unknown> {
  named.ref('Role', ROLE);
  const token = named.ref('Token', {
    type: 'object',
    required: ['access_token', 'token_type', 'expires_in', 'role'],
    additionalProperties: false,
    properties: {
      access_token: { type: 'string' },
      token_type: { const: 'Bearer' },
      expires_in: { type: 'integer' },
      role: ref('Role'),
    },
  });
  const session = named.ref('Session', {
    type: 'object',
    required: ['role', 'expires_in', 'csrf_token', 'csrf_header'],
    additionalProperties: false,
    properties: {
      role: ref('Role'),
      expires_in: { type: 'integer' },
      csrf_token: { type: 'string' },
      csrf_header: { type: 'string' },
    },
  });
  const tokenRequest = named.ref('TokenRequest', {
    type: 'object',
    additionalProperties: false,
    properties: {
      grant_type: { const: 'client_credentials' },
      client_id: { type: 'string' },
      client_secret: { type: 'string' },
    },
  });
  const oauthError = {
    description:
      'RFC 6749 §5.2: invalid_request, invalid_client (401, with WWW-Authenticate), unsupported_grant_type, invalid_scope; temporarily_unavailable for 429 and 503',
    content: { 'application/json': { schema: named.ref('OAuthError', OAUTH_ERROR) } },
  };
  const sessionRequest = named.ref('SessionRequest', {
    type: 'object',
    additionalProperties: false,
    properties: { api_key: { type: 'string' } },
  });
  return {
    '/v1/auth/token': {
      post: {
        operationId: 'IssueToken',
        summary:
          'OAuth 2.0 client credentials (RFC 6749 §4.4): an API key as the client secret (HTTP Basic, client_secret, or X-API-Key) for a short-lived JWT',
        description:
          'Answers in OAuth\u2019s own shape (not the /v1 envelope): the token response, or {error, error_description}. client_id may be any value.',
        security: [{}, { apiKey: [] }, { clientBasic: [] }],
        requestBody: {
          required: false,
          content: {
            'application/x-www-form-urlencoded': { schema: { ...tokenRequest, required: ['grant_type'] } },
            'application/json': { schema: tokenRequest },
          },
        },
        responses: {
          200: {
            description: 'A bearer token (Cache-Control: no-store)',
            content: { 'application/json': { schema: token } },
          },
          ...Object.fromEntries([400, 401, 405, 413, 415, 429, 503].map((status) => [String(status), oauthError])),
        },
      },
    },
    '/v1/auth/session': {
      post: {
        operationId: 'StartSession',
        summary:
          'Browser sign-in: an API key becomes an HttpOnly session cookie (fis_session) plus a CSRF cookie (fis_csrf)',
        security: [{}, { apiKey: [] }],
        requestBody: { required: false, content: { 'application/json': { schema: sessionRequest } } },
        responses: {
          200: {
            description: 'Signed in; Set-Cookie carries the session and the CSRF token',
            content: { 'application/json': { schema: envelope(session) } },
          },
          ...errorRefs([400, 401, 405, 415, 429]),
        },
      },
      delete: {
        operationId: 'EndSession',
        summary: 'Sign out: clears both cookies',
        security: [{}],
        responses: {
          200: {
            description: 'Signed out',
            content: {
              'application/json': {
                schema: envelope({
                  type: 'object',
                  properties: { signed_out: { const: true } },
                  required: ['signed_out'],
                }),
              },
            },
          },
          ...errorRefs([405, 429]),
        },
      },
    },
  };
}
