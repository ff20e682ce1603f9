import { Authorized, Query, Resolver } from 'type-graphql';
import { RATIO_DEFINITIONS } from './ratios';
import { RatioDefinitionType } from './statement.types';

@Resolver()
export class RatioDefinitionResolver {
  @Authorized('viewer')
  @Query(() => [RatioDefinitionType], { description: 'Every ratio the service computes, with its formula.' })
  ratioDefinitions(): RatioDefinitionType[] {
    return RATIO_DEFINITIONS.map(({ key, category, label, formula }) => ({ key, category, label, formula }));
  }
}
