/**
 * What renews a session while its user is active: the API key it began with, sealed (AES-256-GCM) in an HttpOnly
 * cookie with the time of sign-in, under a secret of this server (WEB_SESSION_SECRET, else WEB_API_KEY). Without
 * either secret nothing is sealed and a session ends with its first token.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

export const RENEWAL_COOKIE = 'fis_web_renewal';

function secretKey(): Buffer | null {
  const secret = process.env.WEB_SESSION_SECRET?.trim() || process.env.WEB_API_KEY?.trim();
  return secret ? createHash('sha256').update(`financial-insights web session renewal\n${secret}`).digest() : null;
}

export interface Renewal {
  apiKey: string;
  signedInAt: number;
}

export function sealRenewal(renewal: Renewal): string | null {
  const key = secretKey();
  if (!key) return null;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(JSON.stringify(renewal), 'utf8'), cipher.final()]);
  return [iv, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

/** The sealed renewal, or null when it is missing, tampered with or sealed under another secret. */
export function openRenewal(value: string | undefined): Renewal | null {
  const key = secretKey();
  if (!key || !value) return null;
  try {
    const [iv, tag, sealed] = value.split('.').map((part) => Buffer.from(part, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    const renewal = JSON.parse(Buffer.concat([decipher.update(sealed), decipher.final()]).toString('utf8')) as Renewal;
    return typeof renewal.apiKey === 'string' && typeof renewal.signedInAt === 'number' ? renewal : null;
  } catch {
    return null;
  }
}
