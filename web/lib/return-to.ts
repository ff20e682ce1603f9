/** Where the visitor was (the page and its query, as server.js saw it), for a sign-in that leads back there. */
import { headers } from 'next/headers';
import { localPath } from './local-path';

export { localPath, signInHref } from './local-path';

export async function currentPath(): Promise<string> {
  return localPath((await headers()).get('x-web-url'));
}
