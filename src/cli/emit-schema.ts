/** Writes schema.graphql from the type-graphql classes (`npm run schema`); a test fails when the file is stale. */
import fs from 'node:fs';
import path from 'node:path';
import { printAppSchema } from '../graphql/schema';

const target = path.join(__dirname, '..', '..', '..', 'schema.graphql');
fs.writeFileSync(target, printAppSchema());
process.stdout.write(`wrote ${path.relative(process.cwd(), target) || target}\n`);
