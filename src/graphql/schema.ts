import 'reflect-metadata';
import { GraphQLError, printSchema, type GraphQLSchema, type ValidationRule } from 'graphql';
import { buildSchemaSync, type PubSub } from 'type-graphql';
import { CompanyResolver } from '../companies/company.resolver';
import { FinancialPeriodResolver } from '../statements/financial-period.resolver';
import { RatioDefinitionResolver } from '../statements/ratio-definition.resolver';
import { SearchResolver } from '../search/search.resolver';
import { DocumentResolver } from '../search/document.resolver';
import { AiResolver } from '../ai/ai.resolver';
import {
  BalanceSheetProvenanceResolver,
  CashFlowProvenanceResolver,
  IncomeStatementProvenanceResolver,
} from '../statements/provenance.resolver';
import {
  BalanceSheetQualityResolver,
  CashFlowQualityResolver,
  IncomeStatementQualityResolver,
} from '../statements/data-quality.resolver';
import { CompanyQualityResolver } from '../companies/company-quality.resolver';
import { ScreenerResolver } from '../companies/screener.resolver';
import { authChecker } from '../auth/access';
import { ApiKeyResolver } from '../auth/api-key.resolver';
import { checkCatalogCoversSchema } from '../operations/catalog-schema';

export const STREAM_ENDPOINT = '/graphql/stream';

let built: GraphQLSchema | null = null;

/** type-graphql wants a PubSub once a schema has subscriptions; ours stream from `subscribe` functions, never topics. */
const NO_TOPICS: PubSub = {
  publish: () => {
    throw new Error('this schema has no publish/subscribe topics');
  },
  subscribe: () => {
    throw new Error('this schema has no publish/subscribe topics');
  },
};

/**
 * The GraphQL schema built from the type-graphql classes; `schema.graphql` is this, printed. Built once per process:
 * type-graphql keeps its metadata globally and a second build of it is not identical (argument order flips).
 */
export function buildAppSchema(): GraphQLSchema {
  if (built) return built;
  const schema = buildSchemaSync({
    resolvers: [
      CompanyResolver,
      FinancialPeriodResolver,
      RatioDefinitionResolver,
      SearchResolver,
      DocumentResolver,
      AiResolver,
      IncomeStatementProvenanceResolver,
      BalanceSheetProvenanceResolver,
      CashFlowProvenanceResolver,
      IncomeStatementQualityResolver,
      BalanceSheetQualityResolver,
      CashFlowQualityResolver,
      CompanyQualityResolver,
      ApiKeyResolver,
      ScreenerResolver,
    ],
    // Inputs are checked in the domain services, where REST and GraphQL share the same messages.
    validate: false,
    pubSub: NO_TOPICS,
    authChecker,
  });
  checkCatalogCoversSchema(schema);
  return (built = schema);
}

export function printAppSchema(schema: GraphQLSchema = buildAppSchema()): string {
  return `${printSchema(schema)}\n`;
}

/** Subscriptions are streamed by graphql-sse; over plain HTTP they get a clear validation error instead. */
export const noSubscriptionsOverHttp: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (node.operation === 'subscription') {
      context.reportError(
        new GraphQLError(`Subscriptions are not served at /graphql; use the streaming endpoint ${STREAM_ENDPOINT}`, {
          nodes: [node],
        }),
      );
    }
  },
});
