/**
 * Writes the route tables of README.md and docs/api.md from the operation declarations (`npm run docs:routes`), so
 * a route is documented by declaring it; a test fails when a committed table differs from what this writes.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  ROUTE_DECLARATIONS,
  type JsonSchema,
  type OperationDeclaration,
  type RestDeclaration,
} from '../operations/catalog';
import { inputSchema, splitInput } from '../../rest-facade/rest-input';

/** `summary`: endpoint, role and what it does; `full` adds the rate budget and every input field with its rules. */
export type RouteTableStyle = 'summary' | 'full';

/** The documentation files that hold a generated route table, and the style of each. */
export const ROUTE_TABLE_FILES: ReadonlyArray<{ file: string; style: RouteTableStyle }> = [
  { file: 'README.md', style: 'summary' },
  { file: path.join('docs', 'api.md'), style: 'full' },
];

export const BEGIN_MARKER =
  '<!-- BEGIN route table: generated from src/operations/declarations.ts by `npm run docs:routes` -->';
export const END_MARKER = '<!-- END route table -->';

/** A table cell: pipes escaped, so a summary with `|` stays one cell. */
const cell = (text: string) => text.replace(/\|/g, '\\|');

/** The endpoint as the docs write it: `GET /v1/companies/{id}`. */
export function endpointOf(rest: RestDeclaration): string {
  return `\`${rest.method} ${rest.path.replace(/:(\w+)/g, '{$1}')}\``;
}

/** What a field accepts, briefly: its values, its range, its default. */
function rulesOf(schema: JsonSchema): string {
  const rules: string[] = [];
  if (Array.isArray(schema.enum)) rules.push(schema.enum.map((value) => `\`${String(value)}\``).join(', '));
  const items = schema.items as JsonSchema | undefined;
  if (schema.type === 'array') {
    const count = [schema.minItems, schema.maxItems].every((bound) => bound !== undefined)
      ? `${String(schema.minItems)}–${String(schema.maxItems)} `
      : '';
    const values = items && Array.isArray(items.enum) ? items.enum.map(String) : undefined;
    const of =
      values === undefined
        ? `${String(items?.type ?? 'object')}s`
        : values.length <= 8
          ? values.map((value) => `\`${value}\``).join(', ')
          : `values of a list of ${values.length}`;
    rules.push(`${count}${of}`);
  } else if (schema.minimum !== undefined && schema.maximum !== undefined)
    rules.push(`${String(schema.minimum)}–${String(schema.maximum)}`);
  else if (schema.minimum !== undefined) rules.push(`≥ ${String(schema.minimum)}`);
  if (schema.format !== undefined) rules.push(String(schema.format));
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  return rules.join('; ');
}

/** The input fields of a route, by where they travel: `id` (path), `limit?` (1–100; default 20) … */
function inputOf(rest: RestDeclaration): string {
  const schema = inputSchema(rest);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const { query, body } = splitInput(rest);
  const field = (name: string) => {
    const rules = rulesOf(schema.properties[name]);
    return `\`${name}${required.has(name) ? '' : '?'}\`${rules ? ` (${rules})` : ''}`;
  };
  const parts: string[] = [];
  if (query.length > 0) parts.push(`query: ${query.map(field).join(', ')}`);
  if (body.length > 0) parts.push(`body: ${body.map(field).join(', ')}`);
  return parts.join('; ');
}

function rowOf(declaration: OperationDeclaration, style: RouteTableStyle): string {
  const rest = declaration.rest as RestDeclaration;
  if (style === 'summary')
    return `| ${endpointOf(rest)} | ${declaration.role} | ${cell(rest.summary)}${rest.csv ? ' (CSV too)' : ''} |`;
  return `| ${endpointOf(rest)} | ${declaration.role} | ${declaration.rateClass} | ${cell(inputOf(rest))} | ${cell(rest.summary)} |`;
}

/** The route table of every declared `/v1` route, in declaration order. */
export function routeTable(style: RouteTableStyle): string {
  const header =
    style === 'summary'
      ? ['| endpoint | least role | what it does |', '| --- | --- | --- |']
      : [
          '| endpoint | least role | budget | input (`?`: optional) | what it does |',
          '| --- | --- | --- | --- | --- |',
        ];
  return [...header, ...ROUTE_DECLARATIONS.map((declaration) => rowOf(declaration, style))].join('\n');
}

/** The Markdown text with the table between its markers written anew; throws when the markers are missing. */
export function withRouteTable(markdown: string, style: RouteTableStyle): string {
  const begin = markdown.indexOf(BEGIN_MARKER);
  const end = markdown.indexOf(END_MARKER, begin);
  if (begin < 0 || end < 0) throw new Error(`the route table markers are missing:\n${BEGIN_MARKER}\n${END_MARKER}`);
  return `${markdown.slice(0, begin)}${BEGIN_MARKER}\n\n${routeTable(style)}\n\n${markdown.slice(end)}`;
}

function main(): void {
  const root = path.join(__dirname, '..', '..', '..');
  for (const { file, style } of ROUTE_TABLE_FILES) {
    const target = path.join(root, file);
    const before = fs.readFileSync(target, 'utf8');
    const after = withRouteTable(before, style);
    if (after !== before) fs.writeFileSync(target, after);
    process.stdout.write(`${after === before ? 'unchanged' : 'wrote'} ${file}\n`);
  }
}

if (require.main === module) main();
