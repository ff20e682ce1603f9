import { Arg, Ctx, Mutation, Resolver, Root, Subscription } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import type { RequestContext } from '../graphql/context';
import { ChatEvent, ChatInput, type AnyChatEvent, CompareInput, Comparison, SummarizeInput, Summary } from './ai.types';

@Resolver()
export class AiResolver {
  @CatalogAuthorized()
  @Mutation(() => Summary, {
    description:
      'A summary of one company and period, written from its stored figures and documents, with citations and a grounding check.',
  })
  summarize(
    @Ctx() context: RequestContext,
    @Arg('input', () => SummarizeInput) input: SummarizeInput,
  ): Promise<Summary> {
    return context.ai.summarize(context.loaders, input, context.signal, context);
  }

  @CatalogAuthorized()
  @Mutation(() => Comparison, {
    description: 'A comparison of 2 to 5 companies for a period: text plus a table of the compared measures.',
  })
  compare(@Ctx() context: RequestContext, @Arg('input', () => CompareInput) input: CompareInput): Promise<Comparison> {
    return context.ai.compare(context.loaders, input, context.signal, context);
  }

  @CatalogAuthorized()
  @Subscription(() => ChatEvent, {
    description:
      'A chat answer as it is written: STATUS, TOKEN events, then CITATIONS, then DONE (or ERROR). Served at /graphql/stream (graphql-sse).',
    subscribe: ({ args, context }) =>
      (context as RequestContext).ai.chat(
        (context as RequestContext).loaders,
        args.input as ChatInput,
        (context as RequestContext).signal,
        (context as RequestContext).principal.keyId,
        context as RequestContext,
      ),
  })
  chat(@Root() event: AnyChatEvent, @Arg('input', () => ChatInput) _input: ChatInput): AnyChatEvent {
    return event;
  }
}
