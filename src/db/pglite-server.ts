/**
 * Child process that owns the embedded database: PGlite (+ pgvector) on DATA_DIR, served over the PostgreSQL wire
 * protocol on a loopback port. Running it apart from the HTTP process keeps slow queries off the HTTP event loop.
 * We use our own entry rather than the package's `pglite-server` so the port reaches the parent over IPC and the
 * database closes cleanly when the parent asks, or dies.
 */
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export type ParentMessage = { type: 'shutdown' };
export type ChildMessage = { type: 'ready'; port: number } | { type: 'failed'; message: string };

function send(message: ChildMessage): void {
  process.send?.(message);
}

async function main(): Promise<void> {
  const dataDir = process.env.PGLITE_DATA_DIR;
  const maxConnections = Number(process.env.PGLITE_MAX_CONNECTIONS ?? '1');
  // A restarted child takes the port of the one before, so the pool's connection URL stays right.
  const port = Number(process.env.PGLITE_PORT ?? '0');
  if (!dataDir) throw new Error('PGLITE_DATA_DIR is not set');
  const sharedBuffersMb = Number(process.env.PGLITE_SHARED_BUFFERS_MB || '0');

  // PGlite's own start parameters (single user, no parallel workers…) stay; ours are added after them.
  const startParams =
    sharedBuffersMb > 0 ? [...PGlite.defaultStartParams, '-c', `shared_buffers=${sharedBuffersMb}MB`] : undefined;
  const db = await PGlite.create(dataDir, { extensions: { vector }, startParams });
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port, maxConnections });
  await server.start();
  const servedPort = Number(server.getServerConn().split(':').pop());

  let closing: Promise<void> | null = null;
  const close = () =>
    (closing ??= (async () => {
      await server.stop().catch(() => undefined);
      await db.close();
      process.exit(0);
    })());

  process.on('message', (message: ParentMessage) => {
    if (message?.type === 'shutdown') void close();
  });
  // The parent went away without asking (crash, SIGKILL): close the database so its files stay consistent.
  process.on('disconnect', () => void close());
  // Ctrl-C or a supervisor may signal the whole process group; the parent decides when the database closes,
  // after its in-flight requests are done.
  process.on('SIGINT', () => undefined);
  process.on('SIGTERM', () => undefined);

  send({ type: 'ready', port: servedPort });
}

main().catch((error: unknown) => {
  send({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
  process.exit(1);
});
