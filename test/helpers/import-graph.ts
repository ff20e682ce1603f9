/**
 * The project's import graph as the TypeScript compiler resolves it: every `import`, `import type`, `export … from`
 * and `require` of a source file, resolved with the project's own compiler options, kept when it lands on another
 * source file of the project. Type-only imports count: a circle of types is still a circle to read and to change.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export type ImportGraph = Map<string, Set<string>>;

function sourceFilesUnder(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFilesUnder(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

function compilerOptions(root: string): ts.CompilerOptions {
  const configPath = path.join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config, ts.sys, root).options;
}

/** Files are named relative to `root`, with forward slashes (e.g. `src/app.ts`). */
export function buildImportGraph(root: string, folders: string[]): ImportGraph {
  const options = compilerOptions(root);
  const files = folders.flatMap((folder) => sourceFilesUnder(path.join(root, folder)));
  const known = new Set(files.map((file) => path.resolve(file)));
  const name = (file: string) => path.relative(root, file).split(path.sep).join('/');
  const graph: ImportGraph = new Map();
  for (const file of files) {
    const imports = new Set<string>();
    for (const { fileName: specifier } of ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(specifier, file, options, ts.sys).resolvedModule?.resolvedFileName;
      if (resolved && known.has(path.resolve(resolved))) imports.add(name(resolved));
    }
    graph.set(name(file), imports);
  }
  return graph;
}

/**
 * Every import circle, one per strongly connected component (Tarjan), each shown as one closed path through it
 * (`a → b → c → a`). An empty list means the graph has no circle.
 */
export function findImportCycles(graph: ImportGraph): string[][] {
  const index = new Map<string, number>();
  const lowLink = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  let next = 0;
  const visit = (node: string): void => {
    index.set(node, next);
    lowLink.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        lowLink.set(node, Math.min(lowLink.get(node) as number, lowLink.get(target) as number));
      } else if (onStack.has(target)) {
        lowLink.set(node, Math.min(lowLink.get(node) as number, index.get(target) as number));
      }
    }
    if (lowLink.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || graph.get(node)?.has(node)) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((component) => closedPath(graph, new Set(component)));
}

/** A shortest path from the component's first member (alphabetically) back to itself, inside the component. */
function closedPath(graph: ImportGraph, component: Set<string>): string[] {
  const start = [...component].sort()[0];
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift() as string;
    for (const target of graph.get(node) ?? []) {
      if (!component.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let step: string | undefined = node; step !== undefined && step !== start; step = cameFrom.get(step))
          path.splice(1, 0, step);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
