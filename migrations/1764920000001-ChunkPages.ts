import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Each chunk keeps the page of its document it comes from (PDF pages, or form feeds in text), from 1: what search
 * hits, passages and citations show. Chunks stored before pages were kept are page 1, as a text without page breaks is.
 */
export class ChunkPages1764920000001 implements MigrationInterface {
  name = 'ChunkPages1764920000001';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'ALTER TABLE document_chunks ADD COLUMN IF NOT EXISTS page integer NOT NULL DEFAULT 1 CONSTRAINT document_chunks_page_check CHECK (page >= 1)',
    );
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('ALTER TABLE document_chunks DROP COLUMN IF EXISTS page');
  }
}
