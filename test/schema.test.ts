import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse, visit } from 'graphql';
import { printAppSchema } from '../src/graphql/schema';
import { RATIO_DEFINITIONS } from '../src/statements/ratios';

const root = path.join(__dirname, '..', '..');

describe('schema.graphql', () => {
  it('is the schema the code builds (run `npm run schema` after changing a type)', () => {
    const committed = fs.readFileSync(path.join(root, 'schema.graphql'), 'utf8');
    expect(committed).to.equal(printAppSchema());
  });

  it('has the REST ratios operation select every ratio the service computes', () => {
    const document = parse(fs.readFileSync(path.join(root, 'rest-facade', 'operations', 'GetRatios.graphql'), 'utf8'));
    const selected = new Set<string>();
    visit(document, { Field: (node) => void selected.add(node.name.value) });
    for (const { key } of RATIO_DEFINITIONS) expect(selected.has(key), key).to.equal(true);
  });
});
