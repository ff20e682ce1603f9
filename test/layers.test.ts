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

/** Every folder of TypeScript the project compiles. */
const PROJECT_FOLDERS = ['src', 'rest-facade', 'web/src', 'web/test', 'bench', 'migrations', 'test'];

/**
 * Where src/ may send SQL besides the `*.repository.ts` store modules: the database plumbing (src/db: opening,
 * migrations, locks) and the search engine's modules, whose documents, chunks and models move into repositories with
 * the search work; single calls elsewhere are named with the reason they stay.
 */
const SQL_OUTSIDE_THE_STORE: { folders: string[]; calls: Record<string, string[]> } = {
  folders: ['src/db/', 'src/search/'],
  calls: {
    'src/app.ts': ["query('SELECT 1')"], // the readiness probe asks the database, not an aggregate
    'src/demo/seed.ts': ['getRepository(Document)'], // documents are the search engine's aggregate
  },
};

function allowedSql(file: string, line: string): boolean {
  return (
    file.endsWith('.repository.ts') ||
    SQL_OUTSIDE_THE_STORE.folders.some((folder) => file.startsWith(folder)) ||
    (SQL_OUTSIDE_THE_STORE.calls[file] ?? []).some((call) => line.includes(call))
  );
}

/** A call that sends SQL or builds it: `.query(…)`, `.createQueryBuilder(…)`, `.getRepository(…)`. */
const SQL_CALL = /\.(query|createQueryBuilder|getRepository)\(/;

describe('layers', () => {
  describe('findImportCycles (unit)', () => {
    it('finds no circle in a graph without one', () => {
      expect(findImportCycles(graphOf({ a: ['b', 'c'], b: ['c'], c: [] }))).to.deep.equal([]);
    });

    it('shows each circle as a closed path through it', () => {
      const cycles = findImportCycles(graphOf({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['e'] }));
      expect(cycles).to.have.deep.members([['a', 'b', 'c', 'a'], ['e', 'e']]);
    });
  });

  describe('buildImportGraph', () => {
    const graph = buildImportGraph(root, PROJECT_FOLDERS);

    it('resolves relative imports, type-only imports included', () => {
      expect(graph.get('src/app.ts')).to.include('src/graphql/context.ts');
      expect(graph.get('src/companies/company.resolver.ts')).to.include('src/graphql/context.ts');
    });

    it(`has no import circle in ${PROJECT_FOLDERS.join(', ')}`, () => {
      expect(graph.has('rest-facade/facade.ts') && graph.has('src/app.ts'), 'both src/ and rest-facade/ are read').to.equal(true);
      const cycles = findImportCycles(graph);
      expect(cycles.map((cycle) => cycle.join(' → ')), 'import circles').to.deep.equal([]);
    });

    it('keeps domain modules independent of src/graphql', () => {
      const offenders = [...graph]
        .filter(([file]) => file.startsWith('src/') && !mayImportGraphql(file))
        .flatMap(([file, imports]) => [...imports].filter((target) => target.startsWith('src/graphql/')).map((target) => `${file} → ${target}`));
      expect(offenders, 'domain modules importing src/graphql').to.deep.equal([]);
    });
  });

  describe('store layer', () => {
    it('keeps SQL in the repository modules', () => {
      const offenders = [...buildImportGraph(root, ['src']).keys()].flatMap((file) =>
        fs.readFileSync(path.join(root, file), 'utf8').split('\n')
          .map((line, index) => ({ line, number: index + 1 }))
          .filter(({ line }) => SQL_CALL.test(line) && !allowedSql(file, line))
          .map(({ line, number }) => `${file}:${number}: ${line.trim()}`),
      );
      expect(offenders, 'SQL outside src/**/*.repository.ts').to.deep.equal([]);
    });
  });
});
