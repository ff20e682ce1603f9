const INT32_MAX = 2_147_483_647;

/**
 * An id written the one way it is written back: decimal digits, no sign, no leading zero, no spaces, from 1 to
 * 2³¹−1. Anything else is null, so `01`, ` 1`, `+1` or `0x1` never name the row that `1` names.
 */
export function parseCanonicalId(text: string | undefined): number | null {
  if (text === undefined || !/^[1-9]\d{0,9}$/.test(text)) return null;
  const value = Number(text);
  return value <= INT32_MAX ? value : null;
}
