/**
 * The service refusing (429 with Retry-After, 503 busy or down, or unreachable) is not a bug of the page: the page
 * says so with the cause and when to try again (<ServiceRefusal />, server-rendered, so it reads without
 * JavaScript) and answers 429 or 503 with Retry-After, never 500. Nothing rendered then is cached (cache-handler.js).
 */
import { ApiError } from '@financial-insights/sdk';
import { answerWith } from './request-slot';

export interface Refusal {
  status: 429 | 503;
  code: string;
  message: string;
  retryAfterSeconds: number | null;
}

/** A refusal of the service (rate limit, busy, down or unreachable); null for any other error. */
export function refusalOf(error: unknown): Refusal | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 429)
    return {
      status: 429,
      code: error.code,
      message: error.message,
      retryAfterSeconds: error.retryAfterSeconds ?? null,
    };
  if (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504) {
    const message =
      error.status === 0 ? `The financial insights service is not reachable: ${error.message}` : error.message;
    return {
      status: 503,
      code: error.status === 0 ? 'UPSTREAM_ERROR' : error.code,
      message,
      retryAfterSeconds: error.retryAfterSeconds ?? null,
    };
  }
  return null;
}

/** The refusal, with the answer's status and Retry-After set; any other error is thrown on (a real failure). */
export function refusedOrThrow(error: unknown): Refusal {
  const refusal = refusalOf(error);
  if (!refusal) throw error;
  answerWith(refusal.status, refusal.retryAfterSeconds);
  return refusal;
}
