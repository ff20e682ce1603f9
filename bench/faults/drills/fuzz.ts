/**
 * A fuzz pass over REST and GraphQL: requests built from every declared route and a set of GraphQL documents, bent
 * the ways clients and attackers bend them (odd ids, unknown and repeated parameters, wrong methods, malformed and
 * wrongly typed bodies, truncated documents, unknown operation names, wrong variables), as admin, anonymous and with
 * a bad key. Target: 0 × 5xx. The generator is seeded, so a run can be repeated exactly (FUZZ_SEED, FUZZ_REQUESTS).
 */
import { ROUTE_DECLARATIONS, type RestDeclaration } from '../../../src/operations/catalog';
import { AnswerTally, type DrillResult } from '../drill';
import { seededRandom } from '../../bench-support';
import { freshEmbeddedDatabase, withTeardown, startDrillService } from '../service';

export const name = 'fuzz';

const REQUESTS = Number(process.env.FUZZ_REQUESTS ?? 3_000);
const CONCURRENCY = 8;

const ODD_IDS = [
  '1',
  '2',
  '0',
  '-1',
  '01',
  '%201',
  '1%20',
  '%091',
  '+1',
  '1.5',
  '1e3',
  '0x1',
  '99999999999',
  '2147483648',
  'abc',
  '%00',
  '..%2F..%2Fetc',
  '%E0%A4%A',
  'a'.repeat(300),
  '',
  '%20',
];
const ODD_VALUES: unknown[] = [
  null,
  true,
  false,
  0,
  -1,
  1.5,
  1e308,
  '',
  ' ',
  'x'.repeat(5_000),
  '\u0000',
  '😀',
  '<script>',
  "' OR 1=1 --",
  [],
  [1, 'a'],
  {},
  { a: { b: [] } },
  'FY2024',
  'Q3-2026',
  'latest',
  2_147_483_648,
];
const METHODS = ['GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'HEAD', 'OPTIONS'];
const DOCUMENTS = [
  'query Companies($limit: Int) { companies(limit: $limit) { total items { id name } } }',
  'query Company($id: Int!) { company(id: $id) { id name sector } }',
  '{ sectors }',
  'mutation Summary($id: Int!) { summarize(input: { companyId: $id }) { model } }',
  'query Search($q: String!) { search(query: $q, topK: 3) { chunkId } }',
  'query A { sectors } query B { companies { total } }',
  'subscription { chat(input: { messages: [{ role: "user", content: "hi" }] }) { type } }',
  '{ __schema { types { name } } }',
];

/** Seeded: the same seed makes the same requests. */
function generator(seed: number) {
  const next = seededRandom(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  return { next, pick };
}

interface FuzzRequest {
  label: string;
  path: string;
  init: RequestInit;
}

function restRequest(
  random: ReturnType<typeof generator>,
  route: RestDeclaration,
  headers: Record<string, string>,
): FuzzRequest {
  const method = random.next() < 0.7 ? route.method : random.pick(METHODS);
  const path = route.path.replace(/:(\w+)/g, () => random.pick(ODD_IDS));
  const names = Object.keys(route.input?.properties ?? {});
  const query = new URLSearchParams();
  for (let i = Math.floor(random.next() * 4); i > 0; i--) {
    const name =
      random.next() < 0.8 && names.length > 0
        ? random.pick(names)
        : random.pick(['x', 'limit', 'format', 'sector', '__proto__']);
    query.append(name, String(random.pick(ODD_VALUES)).slice(0, 500));
  }
  const search = query.toString() ? `?${query}` : '';
  let body: string | undefined;
  if (method === 'POST' || method === 'PUT' || method === 'PATCH') {
    const fields = Object.fromEntries(
      names.filter(() => random.next() < 0.7).map((name) => [name, random.pick(ODD_VALUES)]),
    );
    body = random.pick([
      JSON.stringify(fields),
      JSON.stringify(fields).slice(0, -3),
      '[]',
      'null',
      '"text"',
      `${'['.repeat(100)}${']'.repeat(100)}`,
      '',
    ]);
  }
  const contentType = random.pick([
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/merge-patch+json',
  ]);
  return {
    label: `${method} ${route.path}`,
    path: `${path}${search}`,
    init: {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': contentType }) },
      ...(body === undefined || method === 'HEAD' ? {} : { body }),
    },
  };
}

function graphqlRequest(random: ReturnType<typeof generator>, headers: Record<string, string>): FuzzRequest {
  let query = random.pick(DOCUMENTS);
  if (random.next() < 0.3) query = query.slice(0, Math.floor(random.next() * query.length));
  const request: Record<string, unknown> = { query };
  if (random.next() < 0.3) request.operationName = random.pick(['A', 'B', 'Nope', '', 'Companies']);
  if (random.next() < 0.5)
    request.variables = random.pick<unknown>([
      { id: random.pick(ODD_VALUES) },
      { limit: random.pick(ODD_VALUES) },
      { q: random.pick(ODD_VALUES) },
      'vars',
      [1],
      null,
    ]);
  const where = random.pick(['/graphql', '/graphql', '/graphql/stream', 'GET /graphql']);
  if (where === 'GET /graphql') {
    const search = new URLSearchParams(
      Object.entries(request).map(([key, value]): [string, string] => [
        key,
        typeof value === 'string' ? value : JSON.stringify(value),
      ]),
    );
    return {
      label: 'GET /graphql',
      path: `/graphql?${search}`,
      init: { headers: { ...headers, 'apollo-require-preflight': 'true' } },
    };
  }
  const body = random.next() < 0.1 ? JSON.stringify(request).slice(0, -2) : JSON.stringify(request);
  return {
    label: `POST ${where}`,
    path: where,
    init: {
      method: 'POST',
      headers: {
        ...headers,
        'content-type': 'application/json',
        ...(where === '/graphql/stream' ? { accept: 'text/event-stream' } : {}),
      },
      body,
    },
  };
}

export async function run(): Promise<DrillResult> {
  const tally = new AnswerTally();
  const notes: string[] = [];
  let crashes = 0;
  const seed = Number(process.env.FUZZ_SEED ?? 33);
  await withTeardown(notes, async (teardown) => {
    const service = await startDrillService(freshEmbeddedDatabase(teardown));
    teardown.add('service', () => service.stop());
    const random = generator(seed);
    const credentials: Array<Record<string, string>> = [
      { 'x-api-key': service.key },
      {},
      { 'x-api-key': 'fis_live_not_a_key' },
      { authorization: 'Bearer x.y.z' },
    ];
    const requests: FuzzRequest[] = Array.from({ length: REQUESTS }, () => {
      const headers = random.pick(credentials);
      return random.next() < 0.7
        ? restRequest(random, random.pick(ROUTE_DECLARATIONS).rest!, headers)
        : graphqlRequest(random, headers);
    });
    // The admin key itself must not be revoked half-way: that would turn the rest of the pass into 401s.
    const kept = requests.filter(
      (request) => !(request.init.method === 'DELETE' && /^\/v1\/admin\/keys\/1(\?|$)/.test(request.path)),
    );
    const statuses = new Map<number, number>();
    let index = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (index < kept.length && !service.exited()) {
          const request = kept[index++];
          try {
            const response = await fetch(`${service.url}${request.path}`, {
              ...request.init,
              signal: AbortSignal.timeout(30_000),
            });
            const text = await response.text();
            statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
            tally.record(`${request.label} (${request.path.slice(0, 80)})`, response, text.slice(0, 200));
          } catch {
            tally.recordNoAnswer();
          }
        }
      }),
    );
    crashes = service.exited() ? 1 : 0;
    notes.push(
      `seed ${seed}, ${kept.length} requests; statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}`,
    );
    notes.push(...tally.defects.map((defect) => `defect: ${defect}`));
  });
  return { ...tally.counts(), crashes, lostWrites: 0, recoveryMs: [], notes };
}
