import { Arg, Ctx, Int, Mutation, Query, Resolver } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import type { RequestContext } from '../graphql/context';
import { ingestDocument } from './ingestion.service';
import { DEFAULT_TOP_K, MAX_TOP_K, search } from './search.service';
import { IngestDocumentInput, IngestDocumentResult, SearchHit, SearchModeEnum, type SearchMode } from './search.types';

@Resolver()
export class SearchResolver {
  @CatalogAuthorized()
  @Query(() => [SearchHit], { description: 'Hybrid semantic search over company documents, best first.' })
  search(
    @Ctx() { search: backend }: RequestContext,
    @Arg('query', () => String) query: string,
    @Arg('companyIds', () => [Int], { nullable: true, description: 'Only these companies (filtered inside both legs).' }) companyIds: number[] | null,
    @Arg('topK', () => Int, { defaultValue: DEFAULT_TOP_K, description: `Number of chunks, 1 to ${MAX_TOP_K}.` }) topK: number,
    @Arg('mode', () => SearchModeEnum, { defaultValue: 'HYBRID' }) mode: SearchMode,
  ): Promise<SearchHit[]> {
    return search(backend, { query, companyIds, topK, mode });
  }

  @CatalogAuthorized()
  @Mutation(() => IngestDocumentResult, { description: 'Stores a document and indexes it; the same text for the same company is stored once.' })
  ingestDocument(@Ctx() { search: backend }: RequestContext, @Arg('input', () => IngestDocumentInput) input: IngestDocumentInput): Promise<IngestDocumentResult> {
    return ingestDocument(backend, input);
  }
}
