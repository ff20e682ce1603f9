import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A conversation belongs to the API key that started it: another key cannot read or continue it. */
export class ConversationOwner1764500000000 implements MigrationInterface {
  name = 'ConversationOwner1764500000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE conversations ADD COLUMN IF NOT EXISTS owner_key_id integer');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE conversations DROP COLUMN IF EXISTS owner_key_id');
  }
}
