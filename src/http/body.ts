import type { IncomingMessage } from 'node:http';
import { AppError } from '../shared/errors';

/** Reads the whole request body, refusing (413) as soon as it grows past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > maxBytes) throw tooLarge(maxBytes);
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof AppError) throw error;
    // The client hung up or timed out half-way (the server has answered it 408): its doing, not a bug to log.
    throw new AppError('BAD_REQUEST', `The request body ended after ${size} bytes, before it was complete`);
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${maxBytes} bytes`);
}

/** No request of the service needs more than a few levels; this is far above them and far below the stack's limit. */
export const MAX_JSON_DEPTH = 64;

/** The deepest nesting of arrays and objects in JSON text, counted without parsing (brackets in strings do not count). */
export function nestingDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c)
        i += 1; // a backslash escapes the next character
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) deepest = Math.max(deepest, ++depth);
    else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return deepest;
}

/** Parses a JSON request body; the body must be sent as application/json. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Content-Type must be application/json, got "${contentType || 'none'}"`,
    );
  }
  const raw = await readBody(req, maxBytes);
  if (raw.length === 0) throw new AppError('BAD_REQUEST', 'Request body is empty; a JSON document was expected');
  const text = raw.toString('utf8');
  // Deeper documents would overflow the stack of whatever walks them next (validation, error messages).
  if (nestingDepth(text) > MAX_JSON_DEPTH) {
    throw new AppError('BAD_REQUEST', `The JSON body is nested more than ${MAX_JSON_DEPTH} levels deep`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new AppError('BAD_REQUEST', `Malformed JSON body: ${(error as Error).message}`);
  }
}
