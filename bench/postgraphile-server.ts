/**
 * The peer: PostGraphile 5 (Amber preset) serving the service's own tables, as a user would set it up to answer the
 * same pages. Its schema orders and filters by any column (the index-only behaviour plugin off), since the nested
 * page filters fiscal years and orders by period end.
 */
import http from 'node:http';
import { Pool } from 'pg';

export async function startPostGraphile(
  databaseUrl: string,
  poolSize: number,
): Promise<{ server: http.Server; release(): Promise<void> }> {
  // PostGraphile 5 targets Node 22; on Node 20 it needs this one ES2024 function.
  (await import('promise.withresolvers')).default.shim();
  process.env.GRAPHILE_ENV ??= 'production';
  const { postgraphile } = await import('postgraphile');
  const { PostGraphileAmberPreset } = await import('postgraphile/presets/amber');
  const { makePgService } = await import('postgraphile/adaptors/pg');
  const { grafserv } = await import('postgraphile/grafserv/node');
  // Idle connections are kept: PostGraphile prepares its statements by name, and on PGlite every connection shares
  // one session, where a replaced connection would prepare the same name again and fail.
  const pool = new Pool({ connectionString: databaseUrl, max: poolSize, idleTimeoutMillis: 0 });
  pool.on('error', () => undefined);
  const pgl = postgraphile({
    extends: [PostGraphileAmberPreset],
    disablePlugins: ['PgIndexBehaviorsPlugin'],
    pgServices: [makePgService({ pool, schemas: ['public'], pubsub: false })],
    grafserv: { graphqlPath: '/graphql', graphiql: false },
  });
  const serv = pgl.createServ(grafserv);
  const server = http.createServer();
  await serv.addTo(server);
  await serv.ready();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    server,
    release: async () => {
      await serv.release();
      await pgl.release();
      await pool.end();
    },
  };
}
