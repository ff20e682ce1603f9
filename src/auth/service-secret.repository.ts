/** Store of the secrets the service generates for itself (table service_secrets); all their SQL lives here. */
import type { EntityManager } from 'typeorm';

/**
 * The secret stored under `name`, storing `candidate` first when there is none. Race-safe without a lock: when two
 * instances start at once, the first insert wins and both read the winner back.
 */
export async function keepOrStoreSecret(manager: EntityManager, name: string, candidate: string): Promise<string> {
  await manager.query('INSERT INTO service_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    candidate,
  ]);
  const [row]: Array<{ value: string }> = await manager.query('SELECT value FROM service_secrets WHERE name = $1', [
    name,
  ]);
  return row.value;
}
