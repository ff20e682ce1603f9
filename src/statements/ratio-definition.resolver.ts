import { Query, Resolver } from 'type-graphql';
import { CatalogAuthorized } from '../operations/catalog-schema';
import { RATIO_DEFINITIONS } from './ratios';
import { RatioDefinitionType } from './statement.types';

@Resolver()
export class RatioDefinitionResolver {
  @CatalogAuthorized()
  @Query(() => [RatioDefinitionType], { description: 'Every ratio the service computes, with its formula.' })
  ratioDefinitions(): RatioDefinitionType[] {
    return RATIO_DEFINITIONS.map(({ key, category, label, formula }) => ({ key, category, label, formula }));
  }
}
