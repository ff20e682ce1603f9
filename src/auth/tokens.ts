import { SignJWT, jwtVerify } from 'jose';
import { isRole, type Role } from './roles';

export interface TokenSettings {
  /** HMAC key (HS256), at least 32 bytes. */
  secret: Uint8Array;
  issuer: string;
  audience: string;
  ttlSeconds: number;
}

/** The one algorithm tokens are signed and accepted with: "none" or any other is refused. */
const ALGORITHM = 'HS256';
const INT32_MAX = 2_147_483_647;

export async function issueToken(settings: TokenSettings, keyId: number, role: Role): Promise<string> {
  return new SignJWT({ role })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(String(keyId))
    .setIssuer(settings.issuer)
    .setAudience(settings.audience)
    .setIssuedAt()
    .setExpirationTime(`${settings.ttlSeconds}s`)
    .sign(settings.secret);
}

/** The key id and role of a valid token; null for anything else (bad signature, algorithm, issuer, audience, expiry). */
export async function verifyToken(
  settings: TokenSettings,
  token: string,
): Promise<{ keyId: number; role: Role } | null> {
  try {
    const { payload } = await jwtVerify(token, settings.secret, {
      algorithms: [ALGORITHM],
      issuer: settings.issuer,
      audience: settings.audience,
      requiredClaims: ['exp', 'sub'],
    });
    // The key id as this service writes it (`5`, never `05`, ` 5` or `0x5`), or the token is not one of ours.
    if (typeof payload.sub !== 'string' || !/^[1-9]\d{0,9}$/.test(payload.sub) || !isRole(payload.role)) return null;
    const keyId = Number(payload.sub);
    return keyId <= INT32_MAX ? { keyId, role: payload.role } : null;
  } catch {
    return null;
  }
}
