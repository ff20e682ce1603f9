/**
 * The OpenAPI 3.1 document (GET /v1/openapi.json), with the parts the tests read. The service builds it as plain
 * JSON (rest-facade/openapi.ts); these types say what a test expects to find in it.
 */

/** A JSON Schema of the document, with the keywords the tests read. */
export interface SchemaNode {
  $ref?: string;
  type?: string;
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
  oneOf?: SchemaNode[];
  enum?: unknown[];
  const?: unknown;
  required?: string[];
  maximum?: number;
  maxLength?: number;
  maxItems?: number;
}

export interface MediaType {
  schema: SchemaNode;
}

/** A response of an operation: its own, or a `$ref` to one of the components'. */
export interface ResponseNode {
  $ref?: string;
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, MediaType>;
  'x-csv'?: { mediaType: string };
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema: SchemaNode;
}

export interface Operation {
  operationId: string;
  security: Array<Record<string, string[]>>;
  parameters?: Parameter[];
  requestBody?: { required: boolean; content: Record<string, MediaType> };
  responses: Record<string, ResponseNode>;
}

/** The document (a type, not an interface: a `Record<string, unknown>` of it can be read as one). */
export type OpenApiDocument = {
  openapi: string;
  info: { title: string; version: string };
  servers: Array<{ url: string; description: string }>;
  /** Operations by path, then by method in lower case (`get`, `head`, `post` …). */
  paths: Record<string, Record<string, Operation>>;
  components: {
    schemas: Record<string, SchemaNode>;
    responses: Record<string, ResponseNode>;
    securitySchemes: Record<string, unknown>;
  };
};
