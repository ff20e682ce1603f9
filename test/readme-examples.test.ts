import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { Client } from 'pg';
import { parse, print } from 'graphql';
import type { App } from '../src/app';
import { createApiKey } from '../src/auth/api-keys';
import { runCli } from './helpers/cli';
import { startTestApp, TARGET } from './helpers/test-app';
import { codeBlocks } from './helpers/documentation';

/**
 * Runs the HTTP examples of the README and of docs/ as a reader would after `npm start` on a fresh database: the curl
 * commands of their `sh` blocks (with the keys the quick start makes, through the running service) and the operations
 * of their `graphql` blocks. Each must succeed, or answer the status its comment shows; a comment that is whole JSON must
 * match the answer's shape, and a comment that is text must start the answer.
 */

const DOCUMENTED_BASE = 'http://localhost:8080';

interface Example {
  command: string;
  /** The `#` lines that follow the command: what it answers. */
  answer: string[];
}

/** The curl commands of the documentation's sh blocks, continuation lines joined, with their documented answers. */
export function curlExamples(): Example[] {
  const examples: Example[] = [];
  for (const block of codeBlocks('sh')) {
    const lines = block.split('\n');
    for (let i = 0; i < lines.length; i += 1) {
      if (!lines[i].startsWith('curl ')) continue;
      let command = lines[i];
      while (command.endsWith('\\') && i + 1 < lines.length)
        command = `${command.slice(0, -1)} ${lines[(i += 1)].trim()}`;
      const answer: string[] = [];
      while (i + 1 < lines.length && lines[i + 1].startsWith('#')) answer.push(lines[(i += 1)].replace(/^#\s?/, ''));
      examples.push({ command, answer });
    }
  }
  return examples;
}

/** Splits a command line as a POSIX shell would for these examples: quotes, escapes, $VARIABLES, # comments. */
export function shellWords(command: string, env: Record<string, string>): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  const variable = (at: number): [string, number] => {
    const name = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(command.slice(at))?.[1];
    if (!name || env[name] === undefined)
      throw new Error(`Documented example uses an unknown variable at "${command.slice(at, at + 20)}"`);
    return [env[name], name.length + 1];
  };
  for (let i = 0; i < command.length;) {
    const char = command[i];
    if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
      i += 1;
    } else if (char === '#' && !inWord) {
      break;
    } else if (char === "'") {
      const end = command.indexOf("'", i + 1);
      word += command.slice(i + 1, end);
      inWord = true;
      i = end + 1;
    } else if (char === '"') {
      inWord = true;
      for (i += 1; command[i] !== '"';) {
        if (command[i] === '\\' && '"\\$'.includes(command[i + 1])) {
          word += command[i + 1];
          i += 2;
        } else if (command[i] === '$') {
          const [value, length] = variable(i);
          word += value;
          i += length;
        } else word += command[(i += 1) - 1];
      }
      i += 1;
    } else if (char === '$') {
      const [value, length] = variable(i);
      word += value;
      inWord = true;
      i += length;
    } else {
      word += char === '\\' ? command[(i += 1)] : char;
      inWord = true;
      i += 1;
    }
  }
  if (inWord) words.push(word);
  return words;
}

/** The request a curl command line makes (the options these examples use). */
export function curlRequest(words: string[], baseUrl: string): { url: string; init: RequestInit } {
  const headers = new Headers();
  let method: string | undefined;
  const data: string[] = [];
  let url = '';
  for (let i = 1; i < words.length; i += 1) {
    const word = words[i];
    if (word === '-X') method = words[(i += 1)];
    else if (word === '-H') {
      const header = words[(i += 1)];
      headers.set(header.slice(0, header.indexOf(':')).trim(), header.slice(header.indexOf(':') + 1).trim());
    } else if (word === '-d' || word === '--data') data.push(words[(i += 1)]);
    else if (word === '-u') headers.set('authorization', `Basic ${Buffer.from(words[(i += 1)]).toString('base64')}`);
    else if (word === '-I') method = 'HEAD';
    else if (word === '-N' || word === '-s') continue;
    else if (word.startsWith('-'))
      throw new Error(`Documented example uses a curl option this test does not know: ${word}`);
    else url = word.replace(DOCUMENTED_BASE, baseUrl);
  }
  // As curl does: -d makes a POST of a form unless the example says otherwise.
  if (data.length > 0 && !headers.has('content-type')) headers.set('content-type', 'application/x-www-form-urlencoded');
  return {
    url,
    init: {
      method: method ?? (data.length > 0 ? 'POST' : 'GET'),
      headers,
      ...(data.length > 0 ? { body: data.join('&') } : {}),
    },
  };
}

/** Whether `actual` has the documented shape: the same keys (recursively, first array item) and kinds of value. */
function sameShape(documented: unknown, actual: unknown, where: string): void {
  if (documented === null || actual === null) return;
  expect(Array.isArray(actual), `${where}: array`).to.equal(Array.isArray(documented));
  if (Array.isArray(documented)) {
    if (documented.length > 0 && (actual as unknown[]).length > 0)
      sameShape(documented[0], (actual as unknown[])[0], `${where}[0]`);
    return;
  }
  expect(typeof actual, where).to.equal(typeof documented);
  if (typeof documented === 'object') {
    expect(Object.keys(actual as object), where).to.include.members(Object.keys(documented as object));
    for (const [key, value] of Object.entries(documented as object))
      sameShape(value, (actual as Record<string, unknown>)[key], `${where}.${key}`);
  }
}

/** A service on a database of its own, as after a first `npm start`: the examples write documents. */
async function startFresh(): Promise<{ app: App; stop: () => Promise<void> }> {
  if (TARGET === 'embedded') {
    const app = await startTestApp();
    return { app, stop: () => app.close() };
  }
  const name = `fis_readme_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new Client({ connectionString: process.env.TEST_PG_ADMIN_URL });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(process.env.TEST_PG_ADMIN_URL as string);
  url.pathname = `/${name}`;
  const app = await startTestApp({ databaseUrl: url.toString() });
  return {
    app,
    stop: async () => {
      await app.close();
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

describe('README and docs/ examples', function () {
  this.timeout(180_000);
  if (TARGET === 'postgres' && !process.env.TEST_PG_ADMIN_URL) return;
  let fresh: { app: App; stop: () => Promise<void> };
  const env: Record<string, string> = {};

  before(async () => {
    fresh = await startFresh();
    const { app } = fresh;
    env.FIS_BASE_URL = app.url;
    env.FIS_API_KEY = app.firstAdminKey ?? (await createApiKey(app.database.dataSource, 'readme admin', 'admin')).key;
    // The quick start: a key made through the running service with the first admin key.
    const created = await runCli('keys', ['create', '--name', 'me', '--role', 'analyst'], {
      FIS_BASE_URL: app.url,
      FIS_API_KEY: env.FIS_API_KEY,
    });
    expect(created.status, created.stderr).to.equal(0);
    env.FIS_KEY = created.stdout.trim().split('\n').at(-1) as string;
    const token = await fetch(`${app.url}/v1/auth/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`my-app:${env.FIS_KEY}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    env.FIS_TOKEN = ((await token.json()) as { access_token: string }).access_token;
  });
  after(() => fresh?.stop());

  it('finds the examples: every curl command and GraphQL operation', () => {
    expect(curlExamples().length).to.be.at.least(25);
    expect(codeBlocks('graphql').length).to.be.at.least(1);
  });

  it('answers every curl example as its comment shows', async () => {
    const failures: string[] = [];
    for (const { command, answer } of curlExamples()) {
      const { url, init } = curlRequest(shellWords(command, env), fresh.app.url);
      const response = await fetch(url, init);
      const body = await response.text();
      const documented = answer.join('');
      const status = /^(\d{3}) /.exec(documented)?.[1];
      try {
        if (status) expect(response.status, 'status').to.equal(Number(status));
        else expect(response.status, `status, answer ${body.slice(0, 200)}`).to.be.within(200, 299);
        const json = documented.replace(/^\d{3} /, '');
        let parsed: unknown;
        try {
          parsed = JSON.parse(json);
        } catch {
          parsed = undefined;
        }
        if (parsed !== undefined) sameShape(parsed, JSON.parse(body), 'answer');
        else if (answer.length > 0 && !json.startsWith('{'))
          expect(body.replace(/\r\n/g, '\n')).to.satisfy(
            (text: string) => text.startsWith(answer[0]),
            `starts with ${answer[0]}`,
          );
      } catch (error) {
        failures.push(`${command}\n  → ${response.status} ${body.slice(0, 300)}\n  ${(error as Error).message}`);
      }
    }
    expect(failures, failures.join('\n\n')).to.deep.equal([]);
  });

  it('runs every GraphQL operation of the documentation with an admin key', async () => {
    for (const block of codeBlocks('graphql')) {
      for (const operation of parse(block).definitions) {
        const response = await fetch(`${fresh.app.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-api-key': env.FIS_API_KEY },
          body: JSON.stringify({ query: print(operation) }),
        });
        const body = (await response.json()) as { errors?: unknown[]; data?: unknown };
        expect(body.errors, print(operation).slice(0, 80)).to.equal(undefined);
        expect(response.status).to.equal(200);
      }
    }
  });

  it('reads curl command lines as a shell does (unit)', () => {
    expect(shellWords(`curl -H "x-api-key: $K" -d '{"a": "$K"}' 'u?x=1' # note`, { K: 'k1' })).to.deep.equal([
      'curl',
      '-H',
      'x-api-key: k1',
      '-d',
      '{"a": "$K"}',
      'u?x=1',
    ]);
    expect(() => shellWords('curl -H "x: $MISSING"', {})).to.throw(/unknown variable/);
    const { url, init } = curlRequest(
      ['curl', '-X', 'POST', `${DOCUMENTED_BASE}/v1/auth/token`, '-u', 'a:b', '-d', 'grant_type=client_credentials'],
      'http://127.0.0.1:1',
    );
    expect(url).to.equal('http://127.0.0.1:1/v1/auth/token');
    expect(new Headers(init.headers).get('content-type')).to.equal('application/x-www-form-urlencoded');
    expect(new Headers(init.headers).get('authorization')).to.equal(`Basic ${Buffer.from('a:b').toString('base64')}`);
  });
});
