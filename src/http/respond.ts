import type { ServerResponse } from 'node:http';
import { AppError, type ErrorBody } from '../shared/errors';

/**
 * Writes a complete answer of known text, with its length; nothing the service returns may be cached unless a header
 * given says otherwise.
 */
export function sendText(
  res: ServerResponse,
  status: number,
  headers: Record<string, string | string[]>,
  body: string,
): void {
  res.writeHead(status, { 'cache-control': 'no-store', ...headers, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  sendText(res, status, { 'content-type': 'application/json; charset=utf-8', ...headers }, JSON.stringify(body));
}

/**
 * A signal that aborts when the client goes away before its answer is complete, as a function that makes it on first
 * call: most requests never ask for one (only long work listens), and each AbortSignal costs microseconds.
 */
export function clientGoneSignal(res: ServerResponse): () => AbortSignal {
  let controller: AbortController | undefined;
  let gone = false;
  res.once('close', () => {
    if (res.writableFinished) return;
    gone = true;
    controller?.abort(new Error('client disconnected'));
  });
  return () => {
    if (!controller) {
      controller = new AbortController();
      if (gone) controller.abort(new Error('client disconnected'));
    }
    return controller.signal;
  };
}

/** The one failure envelope: `{"success": false, "error": {code, message, details?}}`. */
export function errorEnvelope(error: ErrorBody): { success: false; error: ErrorBody } {
  return {
    success: false,
    error: {
      code: error.code,
      message: error.message,
      ...(error.details === undefined ? {} : { details: error.details }),
    },
  };
}

export function sendAppError(res: ServerResponse, error: AppError): void {
  sendJson(res, error.status, errorEnvelope(error), error.headers);
}
