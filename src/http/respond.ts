import type { ServerResponse } from 'node:http';
import { AppError, type ErrorBody } from '../shared/errors';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(payload),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(payload);
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
