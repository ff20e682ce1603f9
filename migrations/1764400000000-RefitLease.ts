import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row that says which instance is refitting the built-in search model, until when. A lease rather than a
 * session advisory lock: holding a lock would pin a connection for minutes, which a pool of one cannot spare.
 */
export class RefitLease1764400000000 implements MigrationInterface {
  name = 'RefitLease1764400000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS search_refit_lease (
        id integer PRIMARY KEY CHECK (id = 1),
        holder varchar(64) NOT NULL,
        expires_at timestamptz NOT NULL
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS search_refit_lease');
  }
}
