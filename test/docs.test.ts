import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { RATIO_DEFINITIONS } from '../src/statements/ratios';
import { snakeCase } from '../src/shared/case';
import { ROUTES } from '../rest-facade/routes';
import { BEGIN_MARKER, END_MARKER, ROUTE_TABLE_FILES, routeTable, withRouteTable } from '../src/cli/docs-routes';
import { documentationFiles, headingAnchor, headingAnchors, relativeLinks, ROOT } from './helpers/documentation';

const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const readme = read('README.md');
const configuration = read('docs/configuration.md');
const api = read('docs/api.md');
const everything = documentationFiles()
  .map(({ text }) => text)
  .join('\n');

/** The text of every code file a documented name could live in (not the docs themselves, not builds or packages). */
function codeText(): string {
  const skip = new Set(['node_modules', 'dist', '.next', '.git', 'test-output', 'data', 'docs']);
  const texts: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (skip.has(entry.name)) continue;
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|tsx|js|py)$/.test(entry.name) || entry.name === 'run') texts.push(fs.readFileSync(full, 'utf8'));
    }
  };
  for (const dir of ['src', 'rest-facade', 'web', 'bench', 'test', 'sdk', 'examples', '.ci']) {
    if (fs.existsSync(path.join(ROOT, dir))) walk(path.join(ROOT, dir));
  }
  return texts.join('\n');
}

describe('README', () => {
  it('starts with the two quick-start lines', () => {
    const firstBlock = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    expect(firstBlock.split('\n')[0]).to.match(/^npm ci && npm start\s/);
    expect(firstBlock.split('\n')[1]).to.match(/^npm ci && npm test\s/);
  });

  it('is short, with a table of contents linking every section', () => {
    expect(readme.split('\n').length).to.be.at.most(400);
    const sections = [...readme.replace(/```[\s\S]*?```/g, '').matchAll(/^## (.+)$/gm)]
      .map((match) => match[1])
      .filter((title) => title !== 'Contents');
    expect(sections.length).to.be.at.least(6);
    for (const title of sections) expect(readme, title).to.include(`](#${headingAnchor(title)})`);
  });
});

describe('docs/', () => {
  it('documents every ratio with the formula the code uses', () => {
    for (const { key, formula } of RATIO_DEFINITIONS) {
      expect(api, key).to.include(`| \`${snakeCase(key)}\` |`);
      expect(api, key).to.include(formula.replace(/\|/g, '\\|'));
    }
  });

  it('lists every configuration variable the service reads', () => {
    const source = read('src/config/config.ts');
    const variables = new Set([...source.matchAll(/env(?:\.|, ')([A-Z][A-Z_]+)/g)].map((match) => match[1]));
    expect(variables.size).to.be.at.least(8);
    for (const variable of variables) expect(configuration, variable).to.include(`| \`${variable}\` |`);
  });

  it('lists every configuration variable the web front end reads', () => {
    const sources = ['web/lib/config.ts', 'web/server.js'].map(read).join('\n');
    const variables = new Set([...sources.matchAll(/process\.env\.([A-Z][A-Z_]+)/g)].map((match) => match[1]));
    expect(variables).to.include.members(['API_URL', 'NEXT_PUBLIC_API_URL', 'WEB_PORT', 'COOKIE_SECURE']);
    for (const variable of variables) expect(configuration, variable).to.match(new RegExp(`\\| \`${variable}\`[ ,|]`));
  });

  it('documents only variables that some code reads', () => {
    const code = codeText();
    const documented = new Set([...everything.matchAll(/^\| `([A-Z][A-Z0-9_]+)`/gm)].map((match) => match[1]));
    expect(documented.size).to.be.at.least(40);
    const unknown = [...documented].filter((variable) => !code.includes(variable));
    expect(unknown, 'documented but read nowhere').to.deep.equal([]);
  });

  it('lists every REST endpoint in the README and in docs/api.md', () => {
    for (const route of ROUTES) {
      const documented = `\`${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}\``;
      expect(readme, route.path).to.include(documented);
      expect(api, route.path).to.include(documented);
    }
  });

  it('documents only routes that exist', () => {
    const declared = new Set(ROUTES.map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`));
    const code = codeText();
    const missing: string[] = [];
    const documented = [...everything.matchAll(/`(GET|POST|DELETE|HEAD|PUT|PATCH) (\/[^\s`?]*)/g)];
    expect(documented.length).to.be.above(ROUTES.length);
    for (const [, method, route] of documented) {
      if (declared.has(`${method} ${route}`)) continue;
      // The front end's own routes are files of web/app/api; the service's others are mounted by their path.
      const exists = route.startsWith('/api/')
        ? fs.existsSync(path.join(ROOT, 'web', 'app', route.replace(/\{(\w+)\}/g, '[$1]'), 'route.ts'))
        : !route.includes('{') && (code.includes(`'${route}'`) || code.includes(`"${route}"`));
      if (!exists) missing.push(`${method} ${route}`);
    }
    expect(missing).to.deep.equal([]);
  });

  it('links only to files and headings that exist', () => {
    const broken: string[] = [];
    for (const { file, text } of documentationFiles()) {
      for (const link of relativeLinks(text)) {
        const [target, anchor] = link.split('#');
        const resolved =
          target === '' ? path.join(ROOT, file) : path.join(ROOT, path.dirname(file), decodeURIComponent(target));
        if (!fs.existsSync(resolved)) broken.push(`${file}: ${link} (no such file)`);
        else if (
          anchor !== undefined &&
          resolved.endsWith('.md') &&
          !headingAnchors(fs.readFileSync(resolved, 'utf8')).has(anchor)
        ) {
          broken.push(`${file}: ${link} (no such heading)`);
        }
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('links every docs/ page from the README', () => {
    for (const { file } of documentationFiles().slice(1)) expect(readme, file).to.include(`](${file})`);
  });

  it('is written for a user: no history, no issue numbers, no machine paths', () => {
    for (const { file, text } of documentationFiles()) {
      expect(text, file).not.to.match(
        /\b(this|last|previous|next|latest) round\b|\bround \d\b|\bissue[ -]#?\d+|\/work\//i,
      );
    }
  });
});

describe('npm run docs:routes', () => {
  it('has written the committed route tables from the declarations', () => {
    for (const { file, style } of ROUTE_TABLE_FILES) {
      const committed = read(file);
      expect(withRouteTable(committed, style), `${file} is stale: run npm run docs:routes`).to.equal(committed);
    }
  });

  it('writes one row per declared route, and notices a stale table', () => {
    for (const style of ['summary', 'full'] as const) {
      const table = routeTable(style).split('\n');
      expect(table.length).to.equal(ROUTES.length + 2);
      const current = withRouteTable(`before\n${BEGIN_MARKER}\n${table.join('\n')}\n${END_MARKER}\nafter\n`, style);
      const stale = current.replace(`${table[3]}\n`, '');
      expect(stale).to.not.equal(current);
      expect(withRouteTable(stale, style)).to.equal(current);
    }
    expect(() => withRouteTable('no markers', 'full')).to.throw(/markers are missing/);
  });
});
