import type { IncomingMessage } from 'node:http';
import { AppError } from '../shared/errors';

/** Reads the whole request body, refusing (413) as soon as it grows past `maxBytes`. */
export async function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw tooLarge(maxBytes);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

function tooLarge(maxBytes: number): AppError {
  return new AppError('PAYLOAD_TOO_LARGE', `Request body exceeds the limit of ${maxBytes} bytes`);
}

/** Parses a JSON request body; the body must be sent as application/json. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const contentType = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (contentType !== 'application/json' && !contentType.endsWith('+json')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', `Content-Type must be application/json, got "${contentType || 'none'}"`);
  }
  const raw = await readBody(req, maxBytes);
  if (raw.length === 0) throw new AppError('BAD_REQUEST', 'Request body is empty; a JSON document was expected');
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch (error) {
    throw new AppError('BAD_REQUEST', `Malformed JSON body: ${(error as Error).message}`);
  }
}
