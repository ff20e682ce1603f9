import { Arg, Ctx, Field, InputType, Int, Mutation, ObjectType, Query, Resolver } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import type { RequestContext } from '../graphql/context';
import { createApiKey, listApiKeys, revokeApiKey } from './api-keys';

@ObjectType('ApiKey', { description: 'An API key as stored: never the key itself, only the start of it.' })
export class ApiKeyType {
  @Field(() => Int)
  id!: number;

  @Field()
  name!: string;

  @Field({ description: 'viewer, analyst or admin.' })
  role!: string;

  @Field({ description: 'The first characters of the key, to recognise it.' })
  prefix!: string;

  @Field({
    description:
      "A front end's key: its requests that name a visitor in X-Forwarded-For are rate-limited as that visitor.",
  })
  forwardsClients!: boolean;

  @Field()
  createdAt!: Date;

  @Field(() => Date, { nullable: true })
  lastUsedAt!: Date | null;

  @Field(() => Date, {
    nullable: true,
    description: 'When it was revoked; every instance refuses it within a second of that.',
  })
  revokedAt!: Date | null;
}

@ObjectType('CreatedApiKey', { description: 'A new key: `key` is shown this once and cannot be read again.' })
export class CreatedApiKeyType {
  @Field(() => ApiKeyType)
  apiKey!: ApiKeyType;

  @Field({ description: 'The key itself (fis_live_…): store it now.' })
  key!: string;
}

@InputType('CreateApiKeyInput')
export class CreateApiKeyInput {
  @Field({ description: '1 to 100 characters, to tell keys apart.' })
  name!: string;

  @Field({ description: 'viewer, analyst or admin.' })
  role!: string;

  @Field(() => Boolean, {
    nullable: true,
    description: "A front end's key, rate-limited per visitor named in X-Forwarded-For (default false).",
  })
  forwardsClients?: boolean | null;
}

@Resolver()
export class ApiKeyResolver {
  @CatalogAuthorized()
  @Query(() => [ApiKeyType], {
    description: 'Every API key, revoked ones included, oldest first (never the keys themselves).',
  })
  apiKeys(@Ctx() { dataSource }: RequestContext): Promise<ApiKeyType[]> {
    return listApiKeys(dataSource);
  }

  @CatalogAuthorized()
  @Mutation(() => CreatedApiKeyType, { description: 'Creates an API key; the key is in the answer and nowhere else.' })
  async createApiKey(
    @Ctx() { dataSource }: RequestContext,
    @Arg('input', () => CreateApiKeyInput) input: CreateApiKeyInput,
  ): Promise<CreatedApiKeyType> {
    const { record, key } = await createApiKey(dataSource, input.name, input.role, input.forwardsClients ?? false);
    return { apiKey: record, key };
  }

  @CatalogAuthorized()
  @Mutation(() => ApiKeyType, {
    description: 'Revokes an API key (again: keeps the first date); refused by every instance within a second.',
  })
  revokeApiKey(@Ctx() { dataSource }: RequestContext, @Arg('id', () => Int) id: number): Promise<ApiKeyType> {
    return revokeApiKey(dataSource, id);
  }
}
