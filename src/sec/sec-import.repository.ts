/** Store of what the bulk SEC import has done: the file each company was last imported from, by CIK. */
import type { EntityManager } from 'typeorm';

/** The fingerprint each of these CIKs was last imported from (CIKs never imported are absent). */
export async function findImportedFingerprints(
  manager: EntityManager,
  ciks: readonly number[],
): Promise<Map<number, string>> {
  const rows: Array<{ cik: number; fingerprint: string }> = await manager.query(
    'SELECT cik, fingerprint FROM sec_imported_files WHERE cik = ANY($1::int[])',
    [ciks],
  );
  return new Map(rows.map((row) => [row.cik, row.fingerprint]));
}

/** Records that a CIK's data now comes from the file with this fingerprint (in the transaction that stored it). */
export async function recordImportedFile(manager: EntityManager, cik: number, fingerprint: string): Promise<void> {
  await manager.query(
    `INSERT INTO sec_imported_files (cik, fingerprint) VALUES ($1, $2)
       ON CONFLICT (cik) DO UPDATE SET fingerprint = EXCLUDED.fingerprint, imported_at = now()`,
    [cik, fingerprint],
  );
}

/** Runs `work` so that a failure undoes only its own writes, not the rest of the caller's transaction. */
export async function inSavepoint<T>(manager: EntityManager, work: () => Promise<T>): Promise<T> {
  await manager.query('SAVEPOINT bulk_import_item');
  try {
    const result = await work();
    await manager.query('RELEASE SAVEPOINT bulk_import_item');
    return result;
  } catch (error) {
    await manager.query('ROLLBACK TO SAVEPOINT bulk_import_item');
    throw error;
  }
}
