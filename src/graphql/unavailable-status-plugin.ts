import type { ApolloServerPlugin } from '@apollo/server';
import { RETRY_AFTER_SECONDS } from '../db/database-unavailable';

/**
 * Apollo picks the HTTP status before errors are formatted, so a database outage found while executing would go out
 * as HTTP 200. This turns an answer carrying SERVICE_UNAVAILABLE into 503 with Retry-After, as on every transport.
 */
export function unavailableStatusPlugin(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== 'single') return;
          const errors = response.body.singleResult.errors ?? [];
          if (!errors.some((error) => error.extensions?.code === 'SERVICE_UNAVAILABLE')) return;
          response.http.status = 503;
          if (!response.http.headers.has('retry-after')) response.http.headers.set('retry-after', String(RETRY_AFTER_SECONDS));
        },
      };
    },
  };
}
