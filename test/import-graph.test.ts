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

describe('import graph', () => {
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
    const graph = buildImportGraph(root, ['src', 'rest-facade']);

    it('resolves relative imports, type-only imports included', () => {
      expect(graph.get('src/app.ts')).to.include('src/graphql/context.ts');
      expect(graph.get('src/companies/company.resolver.ts')).to.include('src/graphql/context.ts');
    });

    it('has no import circle in src/ and rest-facade/', () => {
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
});
