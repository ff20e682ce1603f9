/**
 * The bare limit: node:http and a `pg` pool, each answer one SQL statement in which PostgreSQL builds the whole JSON
 * text. Nothing a server does can cost less, so every other server's requests/s is read as a fraction of these.
 * The answers are the service's own, byte for byte equal once parsed (the bench checks it before timing).
 */
import http from 'node:http';
import { Pool } from 'pg';

/** snake_case column → the camelCase name the GraphQL schema gives it. */
export const camelCase = (column: string) =>
  column.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase());

/** The statement columns the service exposes, in table order (the surrogate id is internal). */
export async function statementColumns(pool: Pool, table: string): Promise<string[]> {
  const { rows } = await pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 AND column_name <> 'id' ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => row.column_name);
}

/** The JSON of a statement row as the service answers it: numerics as numbers, dates as YYYY-MM-DD. */
function statementJson(alias: string, columns: string[], typeOf: (column: string) => string | undefined): string {
  const pairs = columns.map((column) => {
    const type = typeOf(column);
    const value =
      type === 'numeric'
        ? `${alias}.${column}::float8`
        : type === 'date'
          ? `to_char(${alias}.${column}, 'YYYY-MM-DD')`
          : `${alias}.${column}`;
    return `'${camelCase(column)}', ${value}`;
  });
  return `json_build_object(${pairs.join(', ')})`;
}

const NESTED_FIELDS = {
  income_statements: ['revenue', 'gross_profit', 'operating_income', 'net_income', 'eps_diluted'],
  balance_sheets: ['total_assets', 'total_liabilities', 'total_equity', 'cash_and_equivalents'],
  cash_flow_statements: ['operating_cash_flow', 'capital_expenditure', 'free_cash_flow'],
};

/** The SQL of each route: $1 (and $2) from the query string, one row with one column, the answer's JSON text. */
function routes(
  incomeColumns: string[],
  types: Map<string, string>,
): Record<string, { sql: string; params: (url: URL) => unknown[] }> {
  // The nested page asks for amounts only.
  const statement = (table: string, alias: string, fields: string[]) =>
    `(SELECT ${statementJson(alias, fields, () => 'numeric')} FROM ${table} ${alias} WHERE ${alias}.company_id = c.id AND ${alias}.period = p.period)`;
  const annualPeriods = Object.keys(NESTED_FIELDS)
    .map((table) => `SELECT period FROM ${table} WHERE company_id = c.id AND period LIKE 'FY%'`)
    .join(' UNION ');
  return {
    // GET /v1/companies?limit=N
    '/list': {
      sql: `SELECT json_build_object(
              'success', true,
              'data', coalesce((SELECT json_agg(json_build_object('id', c.id, 'name', c.name, 'ticker', c.ticker, 'sector', c.sector) ORDER BY c.name, c.id)
                                  FROM (SELECT id, name, ticker, sector FROM companies ORDER BY name, id LIMIT $1) c), '[]'::json),
              'meta', json_build_object('total', (SELECT count(*) FROM companies), 'limit', $1::int, 'offset', 0))::text AS body`,
      params: (url) => [Number(url.searchParams.get('limit'))],
    },
    // { company(id) { incomeStatement(period) { every column } } }
    '/statement': {
      sql: `SELECT json_build_object('data', json_build_object('company', json_build_object('incomeStatement',
              (SELECT ${statementJson('s', incomeColumns, (column) => types.get(column))} FROM income_statements s WHERE s.company_id = $1 AND s.period = $2))))::text AS body`,
      params: (url) => [Number(url.searchParams.get('id')), url.searchParams.get('period')],
    },
    // The nested page: companies × their last four fiscal years × three statements.
    '/nested': {
      sql: `SELECT json_build_object('data', json_build_object('companies', json_build_object('items', coalesce(json_agg(json_build_object(
              'id', c.id,
              'ticker', c.ticker,
              'statements', (SELECT coalesce(json_agg(json_build_object(
                  'period', p.period,
                  'incomeStatement', ${statement('income_statements', 'i', NESTED_FIELDS.income_statements)},
                  'balanceSheet', ${statement('balance_sheets', 'b', NESTED_FIELDS.balance_sheets)},
                  'cashFlow', ${statement('cash_flow_statements', 'f', NESTED_FIELDS.cash_flow_statements)}
                ) ORDER BY p.period DESC), '[]'::json)
                FROM (${annualPeriods} ORDER BY period DESC LIMIT 4) p)
            ) ORDER BY c.name, c.id), '[]'::json))))::text AS body
            FROM (SELECT id, ticker, name FROM companies ORDER BY name, id LIMIT $1) c`,
      params: (url) => [Number(url.searchParams.get('limit'))],
    },
  };
}

/** Starts the bare server on a free loopback port. */
export async function startBareServer(
  databaseUrl: string,
  poolSize: number,
): Promise<{ server: http.Server; pool: Pool }> {
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize });
  pool.on('error', () => undefined); // an idle connection dropped at teardown; a query on it fails by itself
  const { rows } = await pool.query<{ column_name: string; data_type: string }>(
    `SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'income_statements'`,
  );
  const types = new Map(rows.map((row) => [row.column_name, row.data_type]));
  const table = routes(await statementColumns(pool, 'income_statements'), types);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bare');
    const route = table[url.pathname];
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    pool.query<{ body: string }>(route.sql, route.params(url)).then(
      ({ rows: [row] }) => res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(row.body),
      (error: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, pool };
}
