/** What a ticker in a URL may be: 1 to 16 letters, digits, dots or dashes (BRK.B, RDS-A). */
export const TICKER = /^[A-Za-z0-9.-]{1,16}$/;
