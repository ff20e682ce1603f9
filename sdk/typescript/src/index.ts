/** The TypeScript SDK of the financial insights service: REST (/v1) and the chat subscription (/graphql/stream). */
export { FinancialInsightsClient, type ChatStreamEvent, type GraphQLChatEvent } from './client.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export * from './errors.js';
export type * from './types.js';
