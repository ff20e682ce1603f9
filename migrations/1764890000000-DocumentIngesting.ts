import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A document being stored in several transactions (on the embedded database, so that readers get the connection
 * between them) is `ingesting` until its last one commits: readers pass it by, and one left by a failure or a crash
 * is removed. Every document stored in one transaction is never seen with it set.
 */
export class DocumentIngesting1764890000000 implements MigrationInterface {
  name = 'DocumentIngesting1764890000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE documents ADD COLUMN IF NOT EXISTS ingesting boolean NOT NULL DEFAULT false');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE documents DROP COLUMN IF EXISTS ingesting');
  }
}
