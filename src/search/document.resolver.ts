import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import type { RequestContext } from '../graphql/context';
import { Document } from './document.entity';
import { Passage } from './document-reading.types';
import { passagesOfDocument, readDocument, tickerOfDocument } from './document-reading.service';

/**
 * Reading a stored document. A document is never nested under a list, so its ticker and passages are one query
 * each (no DataLoader needed).
 */
@Resolver(() => Document)
export class DocumentResolver {
  @CatalogAuthorized()
  @Query(() => Document, { description: 'One stored document with its passages in reading order; NOT_FOUND for an unknown id.' })
  document(@Ctx() { dataSource }: RequestContext, @Arg('id', () => Int) id: number): Promise<Document> {
    return readDocument(dataSource, id);
  }

  @FieldResolver(() => String, { description: 'Ticker of the company.' })
  ticker(@Ctx() { dataSource }: RequestContext, @Root() document: Document): Promise<string> {
    return tickerOfDocument(dataSource, document);
  }

  @FieldResolver(() => [Passage], { description: 'The document\u2019s chunks in reading order.' })
  passages(@Ctx() { dataSource }: RequestContext, @Root() document: Document): Promise<Passage[]> {
    return passagesOfDocument(dataSource, document);
  }
}
