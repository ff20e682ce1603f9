import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys: only a SHA-256 hash of each key is stored, with its name, role and life cycle. */
export class ApiKeys1764200000000 implements MigrationInterface {
  name = 'ApiKeys1764200000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS api_keys (
        id serial PRIMARY KEY,
        name varchar(100) NOT NULL,
        role varchar(16) NOT NULL CHECK (role IN ('viewer', 'analyst', 'admin')),
        prefix varchar(24) NOT NULL,
        key_hash char(64) NOT NULL UNIQUE,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_used_at timestamptz,
        revoked_at timestamptz
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS api_keys');
  }
}
