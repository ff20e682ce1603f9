import { Field, Int, ObjectType } from 'type-graphql';
import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A document about a company (filing, call transcript, note…); its text lives in its chunks. Also the GraphQL type. */
@ObjectType({ description: 'A document about a company, split into searchable chunks.' })
@Entity('documents')
export class Document {
  @Field(() => Int)
  @PrimaryGeneratedColumn()
  id!: number;

  @Field(() => Int)
  @Column('integer')
  companyId!: number;

  @Field()
  @Column('varchar', { length: 300 })
  title!: string;

  @Field({ description: 'Kind of document, e.g. 10-K, 10-Q, earnings-call, press-release, note.' })
  @Column('varchar', { length: 40 })
  docType!: string;

  @Field(() => String, { nullable: true, description: 'Fiscal period the document covers (Q<n>-<yyyy> or FY<yyyy>).' })
  @Column('varchar', { length: 10, nullable: true })
  period!: string | null;

  @Field(() => Date, { nullable: true })
  @Column('timestamptz', { nullable: true })
  publishedAt!: Date | null;

  @Field(() => String, { nullable: true })
  @Column('varchar', { length: 2000, nullable: true })
  sourceUrl!: string | null;

  @Field({ description: 'SHA-256 of the normalized text; the same text for the same company is stored once.' })
  @Column('char', { length: 64 })
  contentHash!: string;

  @Field(() => Int)
  @Column('integer')
  chunkCount!: number;

  @Field(() => Int)
  @Column('integer')
  charCount!: number;

  @Field(() => Date)
  @CreateDateColumn({ type: 'timestamptz' })
  createdAt!: Date;
}
