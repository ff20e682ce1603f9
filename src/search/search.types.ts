import { Field, Float, InputType, Int, ObjectType, registerEnumType } from 'type-graphql';
import { Document } from './document.entity';

export type SearchMode = 'HYBRID' | 'TEXT' | 'VECTOR';
export const SearchModeEnum = { HYBRID: 'HYBRID', TEXT: 'TEXT', VECTOR: 'VECTOR' } as const satisfies Record<
  SearchMode,
  SearchMode
>;
registerEnumType(SearchModeEnum, {
  name: 'SearchMode',
  description:
    'HYBRID fuses full-text and vector rankings (reciprocal rank fusion; their scores where both legs rank every chunk the filter allows); TEXT and VECTOR run one leg alone.',
});

export type DocumentFormat = 'TEXT' | 'MARKDOWN' | 'HTML';
export const DocumentFormatEnum = { TEXT: 'TEXT', MARKDOWN: 'MARKDOWN', HTML: 'HTML' } as const satisfies Record<
  DocumentFormat,
  DocumentFormat
>;
registerEnumType(DocumentFormatEnum, {
  name: 'DocumentFormat',
  description: 'How the content is written; HTML is converted to text.',
});

@ObjectType({ description: 'One chunk of a document that matched a search, best first.' })
export class SearchHit {
  @Field()
  content!: string;

  @Field(() => Float, {
    description:
      'Fused score in HYBRID mode (sum of 1/(60+rank); where both legs rank every chunk the filter allows, weighted sum of their min-max normalized scores), text rank or cosine similarity otherwise.',
  })
  score!: number;

  @Field(() => Int)
  chunkId!: number;

  @Field(() => Int)
  documentId!: number;

  @Field(() => Int)
  companyId!: number;

  @Field()
  ticker!: string;

  @Field()
  title!: string;

  @Field()
  docType!: string;

  @Field(() => String, { nullable: true })
  period!: string | null;

  @Field(() => Int, {
    description:
      'Page of the document the chunk is on, from 1 (PDF pages, or form feeds in text; a document without page breaks is page 1).',
  })
  page!: number;

  @Field(() => String, {
    nullable: true,
    description:
      'Section of the document the chunk comes from (e.g. "Item 7. Management\'s Discussion and Analysis"), when known.',
  })
  section!: string | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Rank in the full-text leg (1 = best), null when that leg did not return it.',
  })
  textRank!: number | null;

  @Field(() => Int, {
    nullable: true,
    description: 'Rank in the vector leg (1 = best), null when that leg did not return it.',
  })
  vectorRank!: number | null;
}

@InputType({ description: 'A document to store and index for search.' })
export class IngestDocumentInput {
  @Field(() => Int)
  companyId!: number;

  @Field()
  title!: string;

  @Field({ description: 'e.g. 10-K, 10-Q, 8-K, 20-F, earnings-call, press-release, note, other.' })
  docType!: string;

  @Field(() => String, {
    nullable: true,
    description: 'The text of the document, written in `format`; or leave it out and send `contentBase64`.',
  })
  content?: string | null;

  @Field(() => DocumentFormatEnum, { defaultValue: 'TEXT', description: 'How `content` is written.' })
  format!: DocumentFormat;

  @Field(() => String, {
    nullable: true,
    description:
      'The document\u2019s bytes in base64 (a PDF, or UTF-8 text), instead of `content`; `contentType` says what they are.',
  })
  contentBase64?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'Media type of `contentBase64`: application/pdf, text/plain, text/markdown or text/html (UTF-8).',
  })
  contentType?: string | null;

  @Field(() => String, { nullable: true })
  period?: string | null;

  @Field(() => String, { nullable: true, description: 'ISO 8601 date or date-time.' })
  publishedAt?: string | null;

  @Field(() => String, { nullable: true })
  sourceUrl?: string | null;

  @Field(() => String, {
    nullable: true,
    description:
      'Section title when the document is one section of a filing; otherwise sections are found from SEC item headings.',
  })
  section?: string | null;
}

@ObjectType()
export class IngestDocumentResult {
  @Field(() => Document)
  document!: Document;

  @Field({
    description: 'False when the same text was already stored for the company (the existing document is returned).',
  })
  created!: boolean;
}
