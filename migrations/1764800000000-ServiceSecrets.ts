import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Secrets the service generates for itself and every instance must share: the JWT signing secret when JWT_SECRET is
 * not set, so a restart or a second instance on the same database keeps tokens and sessions valid.
 */
export class ServiceSecrets1764800000000 implements MigrationInterface {
  name = 'ServiceSecrets1764800000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(`
      CREATE TABLE IF NOT EXISTS service_secrets (
        name varchar(64) PRIMARY KEY,
        value text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('DROP TABLE IF EXISTS service_secrets');
  }
}
