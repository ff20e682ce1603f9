/** The TypeScript SDK of the financial insights service. */
export {
  FinancialInsightsClient,
  type ChatStreamEvent,
  type GraphQLChatEvent,
  type GraphQLChatDoneEvent,
  type UnknownChatEvent,
} from './client.js';
export { ChatStream } from './chat-stream.js';
export type { ClientOptions, RequestOptions } from './transport.js';
export * from './errors.js';
export type * from './types.js';
export { readEvents, type ServerSentEvent } from './sse.js';
