import { Field, Int, ObjectType } from 'type-graphql';

@ObjectType({ description: 'One chunk of a document, in reading order: what search hits and citations point at.' })
export class Passage {
  @Field(() => Int, { description: 'The chunk id that search results and document citations carry.' })
  chunkId!: number;

  @Field(() => Int, {
    description:
      'Page of the document the passage is on, from 1 (PDF pages, or form feeds in text; a document without page breaks is page 1).',
  })
  page!: number;

  @Field()
  content!: string;
}
