import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import type { RequestContext } from '../graphql/context';
import { Document } from './document.entity';
import { Passage } from './document-reading.types';
import { passagesOfDocument, readDocument, tickerOfDocument } from './document-reading.service';

/**
 * Reading a stored document: the `document` query loads it with its ticker and passages in one query; the field
 * resolvers give them to a document that came without (the one `ingestDocument` answers).
 */
@Resolver(() => Document)
export class DocumentResolver {
  @CatalogAuthorized()
  @Query(() => Document, {
    description: 'One stored document with its passages in reading order; NOT_FOUND for an unknown id.',
  })
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
