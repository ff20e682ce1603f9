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
    @Arg('companyIds', () => [Int], {
      nullable: true,
      description: 'Only these companies (filtered inside both legs).',
    })
    companyIds: number[] | null,
    @Arg('topK', () => Int, { defaultValue: DEFAULT_TOP_K, description: `Number of chunks, 1 to ${MAX_TOP_K}.` })
    topK: number,
    @Arg('mode', () => SearchModeEnum, { defaultValue: 'HYBRID' }) mode: SearchMode,
    @Arg('periods', () => [String], {
      nullable: true,
      description: 'Only documents of these fiscal periods (FY2024, Q3-2024).',
    })
    periods: string[] | null,
    @Arg('docTypes', () => [String], {
      nullable: true,
      description: 'Only documents of these types (10-K, earnings-call …).',
    })
    docTypes: string[] | null,
    @Arg('sections', () => [String], {
      nullable: true,
      description: 'Only these sections: an item ("Item 7") or words of a section title ("risk factors").',
    })
    sections: string[] | null,
    @Arg('publishedFrom', () => String, {
      nullable: true,
      description: 'Only documents published on or after this ISO 8601 date.',
    })
    publishedFrom: string | null,
    @Arg('publishedTo', () => String, {
      nullable: true,
      description: 'Only documents published on or before this ISO 8601 date.',
    })
    publishedTo: string | null,
  ): Promise<SearchHit[]> {
    return search(backend, { query, companyIds, topK, mode, periods, docTypes, sections, publishedFrom, publishedTo });
  }

  @CatalogAuthorized()
  @Mutation(() => IngestDocumentResult, {
    description: 'Stores a document and indexes it; the same text for the same company is stored once.',
  })
  ingestDocument(
    @Ctx() { search: backend }: RequestContext,
    @Arg('input', () => IngestDocumentInput) input: IngestDocumentInput,
  ): Promise<IngestDocumentResult> {
    return ingestDocument(backend, input);
  }
}
