import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The impact index of the postings carries the chunk id, so a global query's best postings of a term come from the
 * index alone (an index-only scan, on the pages VACUUM has marked all-visible) instead of one heap page of
 * `chunk_postings` per posting: 400 random reads of a table of about a gigabyte per query term at 100,000 chunks,
 * which made the first queries after a start slow. The key is unchanged, so is the order of equal impacts (by the
 * row's position, as before), and so are the postings a query reads.
 */
export class CoveringImpactIndex1764840000000 implements MigrationInterface {
  name = 'CoveringImpactIndex1764840000000';

  async up(runner: QueryRunner): Promise<void> {
    await runner.query(
      'CREATE INDEX IF NOT EXISTS chunk_postings_impact_chunk_idx ON chunk_postings (term, impact DESC) INCLUDE (chunk_id)',
    );
    await runner.query('DROP INDEX IF EXISTS chunk_postings_impact_idx');
  }

  async down(runner: QueryRunner): Promise<void> {
    await runner.query('CREATE INDEX IF NOT EXISTS chunk_postings_impact_idx ON chunk_postings (term, impact DESC)');
    await runner.query('DROP INDEX IF EXISTS chunk_postings_impact_chunk_idx');
  }
}
