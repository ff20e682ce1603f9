import type { DataSource, EntityManager } from 'typeorm';

/** The parts of a `pg` pool that tell whether requests are using or waiting for its connections. */
interface PoolLoad {
  readonly waitingCount: number;
  readonly idleCount: number;
  readonly totalCount: number;
  readonly options: { max: number };
}

/** How long the pool must stay free before background work takes its next turn: longer than a request's pause between two of its statements. */
const QUIET_MS = 15;
/** Background work waits at most this long per turn, so it still advances while requests keep the pool busy. */
const MAX_WAIT_MS = 1_000;
const POLL_MS = 5;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function poolOf(dataSource: DataSource): PoolLoad | null {
  const pool = (dataSource.driver as { master?: PoolLoad }).master;
  return pool && typeof pool.waitingCount === 'number' ? pool : null;
}

/** True while every connection is in use or a request waits for one. */
function busy(pool: PoolLoad): boolean {
  return pool.waitingCount > 0 || (pool.totalCount >= pool.options.max && pool.idleCount === 0);
}

/**
 * Called by background work (a refit) between its statements. The pool hands its connection out in arrival order,
 * and the embedded database has only one: work that queues its next statement as soon as the last one ends takes
 * every other turn, and a request of several statements waits behind it once per statement. So when requests are
 * using or waiting for the connection, this waits until they have left it free for QUIET_MS (at most MAX_WAIT_MS),
 * and a request runs all its statements in a row. Without contention it returns after one turn of the event loop.
 * A manager bound to a query runner holds a connection already: nothing can get ahead of it, so nothing to wait for.
 */
export async function giveWayToRequests(manager: EntityManager): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  const pool = manager.queryRunner ? null : poolOf(manager.connection);
  if (!pool || !busy(pool)) return;
  const deadline = Date.now() + MAX_WAIT_MS;
  let freeSince: number | null = null;
  while (Date.now() < deadline) {
    if (busy(pool)) freeSince = null;
    else {
      freeSince ??= Date.now();
      if (Date.now() - freeSince >= QUIET_MS) return;
    }
    await pause(POLL_MS);
  }
}
