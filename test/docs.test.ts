import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { RATIO_DEFINITIONS } from '../src/statements/ratios';
import { snakeCase } from '../src/shared/case';
import { ROUTES } from '../rest-facade/routes';

const root = path.join(__dirname, '..', '..');
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');

describe('README', () => {
  it('starts with the two quick-start lines', () => {
    expect(readme).to.include('npm ci && npm start');
    expect(readme).to.include('npm ci && npm test');
  });

  it('documents every ratio with the formula the code uses', () => {
    for (const { key, formula } of RATIO_DEFINITIONS) {
      expect(readme, key).to.include(`| \`${snakeCase(key)}\` |`);
      expect(readme, key).to.include(formula.replace(/\|/g, '\\|'));
    }
  });

  it('lists every configuration variable the service reads', () => {
    const source = fs.readFileSync(path.join(root, 'src', 'config', 'config.ts'), 'utf8');
    const variables = new Set([...source.matchAll(/env(?:\.|, ')([A-Z][A-Z_]+)/g)].map((match) => match[1]));
    expect(variables.size).to.be.at.least(8);
    for (const variable of variables) expect(readme, variable).to.include(`| \`${variable}\` |`);
  });

  it('lists every configuration variable the web front end reads', () => {
    const sources = ['lib/config.ts', 'server.js'].map((file) => fs.readFileSync(path.join(root, 'web', file), 'utf8')).join('\n');
    const variables = new Set([...sources.matchAll(/process\.env\.([A-Z][A-Z_]+)/g)].map((match) => match[1]));
    expect(variables).to.include.members(['API_URL', 'NEXT_PUBLIC_API_URL', 'WEB_PORT', 'COOKIE_SECURE']);
    for (const variable of variables) expect(readme, variable).to.match(new RegExp(`\\| \`${variable}\`[ ,|]`));
  });

  it('lists every REST endpoint', () => {
    for (const route of ROUTES) {
      const documented = route.path.replace(/:(\w+)/g, '{$1}');
      expect(readme, route.path).to.include(`\`${route.method} ${documented}\``);
    }
  });
});
