import { createHash, randomBytes } from 'node:crypto';

/**
 * API keys look like `fis_live_<32 base62 characters><6 base62 checksum>`. The checksum (from SHA-256 of the body)
 * lets a mistyped or made-up key be refused without a database look-up; the key itself is shown once, at creation,
 * and only its SHA-256 hash is stored (right for a high-entropy secret: no salt or slow hash is needed).
 */
export const KEY_PREFIX = 'fis_live_';
const BODY_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const KEY_SHAPE = new RegExp(`^${KEY_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(bytes: Buffer, length: number): string {
  let out = '';
  for (const byte of bytes) {
    if (out.length === length) break;
    // Bytes of 248 and above would bias the alphabet; skip them.
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

function checksum(body: string): string {
  return base62(createHash('sha256').update(body).digest(), CHECKSUM_LENGTH);
}

export function generateKey(): string {
  let body = '';
  while (body.length < BODY_LENGTH) body += base62(randomBytes(48), BODY_LENGTH - body.length);
  return `${KEY_PREFIX}${body}${checksum(body)}`;
}

/** Whether a string has the shape and checksum of a key we issue (no database needed). */
export function isWellFormedKey(key: string): boolean {
  if (!KEY_SHAPE.test(key)) return false;
  const body = key.slice(KEY_PREFIX.length, KEY_PREFIX.length + BODY_LENGTH);
  return key.endsWith(checksum(body));
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
