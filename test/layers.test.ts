import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { buildImportGraph, findImportCycles, type ImportGraph } from './helpers/import-graph';

const root = path.join(__dirname, '..', '..');

const graphOf = (edges: Record<string, string[]>): ImportGraph =>
  new Map(Object.entries(edges).map(([file, imports]) => [file, new Set(imports)]));

/**
 * Who may import from src/graphql: the GraphQL adapter itself, the type-graphql resolvers and types (they name the
 * request context), and the entry points that wire the transports together.
 */
function mayImportGraphql(file: string): boolean {
  return (
    file.startsWith('src/graphql/') ||
    /\.(resolver|types?)\.ts$/.test(file) ||
    file === 'src/app.ts' ||
    file.startsWith('src/cli/')
  );
}

/**
 * The layers of src/ and rest-facade/, lowest first. A module may import its own folder and the folders of lower
 * layers, never a higher layer nor another folder of its own layer. `(top)` is src/app.ts and src/main.ts.
 */
const LAYERS: string[][] = [
  ['shared'],
  ['config'],
  ['db'],
  ['operations'],
  ['auth', 'limits'],
  ['statements'],
  ['companies'],
  ['understanding'],
  ['documents'],
  ['search'],
  ['ai'],
  ['sec', 'demo'],
  ['http'],
  ['graphql'],
  ['rest-facade'],
  ['cli', '(top)'],
];

/** The one upward import allowed: a resolver (or its GraphQL types) names the request context it is handed. */
const READS_THE_CONTEXT = (file: string, target: string) =>
  /\.(resolver|types?)\.ts$/.test(file) && target === 'src/graphql/context.ts';

/** The layer folder of a module: src/<folder>/…, rest-facade, or (top) for the entry points at src/. */
function folderOf(file: string): string | null {
  if (file.startsWith('rest-facade/')) return 'rest-facade';
  const parts = file.split('/');
  if (parts[0] !== 'src') return null;
  return parts.length === 2 ? '(top)' : parts[1];
}

function layerOf(folder: string): number {
  return LAYERS.findIndex((layer) => layer.includes(folder));
}

/** Imports that go up a layer or sideways to another folder of the same layer, as `file → target`. */
function importsAgainstTheLayers(graph: ImportGraph): string[] {
  return [...graph].flatMap(([file, imports]) =>
    [...imports].flatMap((target) => {
      const [from, to] = [folderOf(file), folderOf(target)];
      if (from === null || to === null || from === to || READS_THE_CONTEXT(file, target)) return [];
      return layerOf(to) < layerOf(from) ? [] : [`${file} → ${target}`];
    }),
  );
}

/** Every folder of TypeScript the project compiles. */
const PROJECT_FOLDERS = [
  'src',
  'rest-facade',
  'web/test',
  'bench',
  'migrations',
  'test',
  'sdk/generate',
  'sdk/typescript/src',
  'sdk/typescript/test',
  'examples/typescript',
];

/**
 * Where src/ may send SQL besides the `*.repository.ts` store modules, each named with the reason it stays: a
 * statement is let through only when it matches its file's pattern, so new data access in these files still fails.
 */
const SQL_OUTSIDE_THE_STORE: Record<string, Array<{ statement: RegExp; why: string }>> = {
  'src/graphql/compiled-execution.ts': [
    { statement: /plan\.compiled\.query\(/, why: 'runs a compiled GraphQL query (graphql-jit), no SQL' },
  ],
  'src/app.ts': [{ statement: /query\('SELECT 1'\)/, why: 'the readiness probe asks the database, not an aggregate' }],
  'src/demo/seed.ts': [
    { statement: /getRepository\(Document\)\.count\(\)/, why: 'the demo seed only asks whether documents exist yet' },
  ],
  'src/db/database.ts': [
    {
      statement: /query\('SELECT 1'\)/,
      why: 'the health probe behind 503/recovery asks the connection, not an aggregate',
    },
    {
      statement: /query\('SELECT pg_advisory_(un)?lock\(\$1\)'/,
      why: 'the start-up lock is connection plumbing around migrations',
    },
  ],
  'src/db/vector-schema.ts': [
    {
      statement: /CREATE (EXTENSION|TABLE|INDEX) IF NOT EXISTS/,
      why: 'pgvector DDL: the table and per-model indexes depend on the server and configured models, so no migration can create them',
    },
    {
      statement: /FROM pg_(available_extensions|extension) WHERE/,
      why: 'asks the catalog whether pgvector exists before that DDL',
    },
  ],
};

/** How many lines after a flagged line belong to its statement (a call whose SQL starts on the next line). */
const STATEMENT_LINES = 3;

function allowedSql(file: string, statement: string): boolean {
  return (
    file.endsWith('.repository.ts') ||
    (SQL_OUTSIDE_THE_STORE[file] ?? []).some((exception) => exception.statement.test(statement))
  );
}

/**
 * A line that sends SQL or builds it: `.query(…)` on any receiver (data source, manager, query runner),
 * `.createQueryBuilder(…)`, `.getRepository(…)`, entity-manager writes and reads, or a string that starts a statement
 * (also the first line of a multi-line template).
 */
const SQL_LINE = [
  /\.(query|createQueryBuilder|getRepository)\(/,
  /\b(manager|dataSource|queryRunner|runner)\.(save|insert|update|delete|remove|upsert|find\w*|count|exists)\(/,
  /[`'"]\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE|ALTER|DROP|TRUNCATE)\s/,
  /^\s*(SELECT|INSERT\s+INTO|DELETE\s+FROM|CREATE|ALTER\s+TABLE|DROP|TRUNCATE)\s/,
];

/** Lines of src/ that send or write SQL outside the store, as `file:line: code`. */
function sqlOutsideTheStore(file: string, source: string): string[] {
  const lines = source.split('\n');
  return lines.flatMap((line, index) => {
    if (!SQL_LINE.some((pattern) => pattern.test(line))) return [];
    const statement = lines.slice(index, index + STATEMENT_LINES).join(' ');
    return allowedSql(file, statement) ? [] : [`${file}:${index + 1}: ${line.trim()}`];
  });
}

describe('layers', () => {
  describe('findImportCycles (unit)', () => {
    it('finds no circle in a graph without one', () => {
      expect(findImportCycles(graphOf({ a: ['b', 'c'], b: ['c'], c: [] }))).to.deep.equal([]);
    });

    it('shows each circle as a closed path through it', () => {
      const cycles = findImportCycles(graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['e'] }));
      expect(cycles).to.have.deep.members([
        ['a', 'b', 'c', 'a'],
        ['e', 'e'],
      ]);
    });
  });

  describe('buildImportGraph', () => {
    const graph = buildImportGraph(root, PROJECT_FOLDERS);

    it('resolves relative imports, type-only imports included', () => {
      expect(graph.get('src/app.ts')).to.include('src/graphql/context.ts');
      expect(graph.get('src/companies/company.resolver.ts')).to.include('src/graphql/context.ts');
    });

    it(`has no import circle in ${PROJECT_FOLDERS.join(', ')}`, () => {
      expect(
        graph.has('rest-facade/facade.ts') && graph.has('src/app.ts'),
        'both src/ and rest-facade/ are read',
      ).to.equal(true);
      const cycles = findImportCycles(graph);
      expect(
        cycles.map((cycle) => cycle.join(' → ')),
        'import circles',
      ).to.deep.equal([]);
    });

    it('places every folder of src/ in a layer', () => {
      const folders = new Set([...graph.keys()].map(folderOf).filter((folder): folder is string => folder !== null));
      expect(
        [...folders].filter((folder) => layerOf(folder) < 0),
        'folders in no layer',
      ).to.deep.equal([]);
    });

    it('imports one way: down the layers, never up or sideways (resolvers naming the request context excepted)', () => {
      expect(importsAgainstTheLayers(graph)).to.deep.equal([]);
    });

    it('finds an import up a layer and one sideways (unit)', () => {
      const offenders = importsAgainstTheLayers(
        graphOf({
          'src/db/data-source.ts': ['src/companies/company.entity.ts', 'src/shared/case.ts'],
          'src/auth/api-keys.ts': ['src/limits/rate-limiter.ts'],
          'src/companies/company.resolver.ts': ['src/graphql/context.ts', 'src/statements/statement.service.ts'],
          'src/companies/company.service.ts': ['src/graphql/context.ts'],
        }),
      );
      expect(offenders).to.deep.equal([
        'src/db/data-source.ts → src/companies/company.entity.ts',
        'src/auth/api-keys.ts → src/limits/rate-limiter.ts',
        'src/companies/company.service.ts → src/graphql/context.ts',
      ]);
    });

    it('keeps domain modules independent of src/graphql', () => {
      const offenders = [...graph]
        .filter(([file]) => file.startsWith('src/') && !mayImportGraphql(file))
        .flatMap(([file, imports]) =>
          [...imports].filter((target) => target.startsWith('src/graphql/')).map((target) => `${file} → ${target}`),
        );
      expect(offenders, 'domain modules importing src/graphql').to.deep.equal([]);
    });
  });

  describe('store layer', () => {
    it('finds SQL on any receiver and in statement strings (unit)', () => {
      const source = [
        "await manager.query('SELECT 1');",
        'await queryRunner.query(',
        '  `INSERT INTO chunk_embeddings (chunk_id) VALUES ($1)`);',
        'const rows = await this.dataSource.manager.find(Document);',
        "const text = 'DELETE FROM documents';",
        'const ok = values.find((value) => value > 1);',
      ].join('\n');
      expect(sqlOutsideTheStore('src/somewhere.ts', source).map((found) => found.split(':')[1])).to.deep.equal([
        '1',
        '2',
        '3',
        '4',
        '5',
      ]);
      expect(sqlOutsideTheStore('src/somewhere.repository.ts', source)).to.deep.equal([]);
    });

    it('lets a named exception through only for its own statements', () => {
      const ddl = "await runner.query('CREATE INDEX IF NOT EXISTS x ON chunk_embeddings (model)');";
      const dml = 'await manager.query(\n  `INSERT INTO chunk_embeddings (chunk_id) VALUES ($1)`);';
      expect(sqlOutsideTheStore('src/db/vector-schema.ts', ddl)).to.deep.equal([]);
      expect(sqlOutsideTheStore('src/db/vector-schema.ts', dml)).to.have.length(2);
      expect(sqlOutsideTheStore('src/db/database.ts', dml)).to.have.length(2);
    });

    it('keeps SQL in the repository modules', () => {
      const offenders = [...buildImportGraph(root, ['src']).keys()].flatMap((file) =>
        sqlOutsideTheStore(file, fs.readFileSync(path.join(root, file), 'utf8')),
      );
      expect(offenders, 'SQL outside src/**/*.repository.ts').to.deep.equal([]);
    });
  });
});
