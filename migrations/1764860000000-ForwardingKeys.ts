import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A key can forward its clients: a front end's key whose requests carry each visitor's address in X-Forwarded-For,
 * so every visitor is rate-limited on their own (see the guard). Existing keys do not forward.
 */
export class ForwardingKeys1764860000000 implements MigrationInterface {
  name = 'ForwardingKeys1764860000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS forwards_clients boolean NOT NULL DEFAULT false');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE api_keys DROP COLUMN IF EXISTS forwards_clients');
  }
}
