/** The visitor's address as this front end's server saw it (server.js sets it; a browser cannot). */
import { headers } from 'next/headers';

export const VISITOR_HEADER = 'x-web-visitor';

/** Only for pages and routes rendered per request: reading headers makes a page dynamic. */
export async function visitorAddress(): Promise<string | null> {
  return (await headers()).get(VISITOR_HEADER);
}
