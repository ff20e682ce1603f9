import fs from 'node:fs';
import path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AppError } from '../shared/errors';

/**
 * GraphiQL, the in-browser GraphQL IDE, served from the installed packages (no CDN): GET /graphql from a browser
 * (Accept: text/html) gets the page, /graphql/assets/ its files. Credentials go in its Headers tab
 * ({"X-API-Key": "fis_live_…"}); reads work without. Only served while introspection is on (it needs the schema).
 */
export const GRAPHIQL_ASSETS = '/graphql/assets/';

const ASSETS: Record<string, { pkg: string; file: string; type: string }> = {
  'react.js': { pkg: 'react', file: 'umd/react.production.min.js', type: 'text/javascript' },
  'react-dom.js': { pkg: 'react-dom', file: 'umd/react-dom.production.min.js', type: 'text/javascript' },
  'graphiql.js': { pkg: 'graphiql', file: 'graphiql.min.js', type: 'text/javascript' },
  'graphiql.css': { pkg: 'graphiql', file: 'graphiql.min.css', type: 'text/css' },
};

const DEFAULT_QUERY = `# Company and statement reads are public. Search and AI need a key: put
#   { "X-API-Key": "fis_live_..." }
# in the Headers tab below. The chat subscription streams at /graphql/stream (graphql-sse).
{
  companies(limit: 3) {
    total
    items { ticker name sector incomeStatement(period: "latest-fy") { period revenue netIncome } }
  }
}
`;

const INIT = `const fetcher = GraphiQL.createFetcher({ url: '/graphql' });
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, { fetcher, defaultEditorToolsVisibility: true, defaultQuery: ${JSON.stringify(DEFAULT_QUERY)} }),
);
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL · Financial insights service</title>
<link rel="stylesheet" href="${GRAPHIQL_ASSETS}graphiql.css">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${GRAPHIQL_ASSETS}react.js"></script>
<script src="${GRAPHIQL_ASSETS}react-dom.js"></script>
<script src="${GRAPHIQL_ASSETS}graphiql.js"></script>
<script src="${GRAPHIQL_ASSETS}init.js"></script>
</body>
</html>
`;

const SECURITY_HEADERS = {
  'content-security-policy':
    "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; font-src 'self' data:; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
};

/** A browser asking for /graphql without a query: it wants the IDE, not a JSON error. */
export function wantsGraphiQL(req: IncomingMessage, url: URL): boolean {
  return req.method === 'GET' && !url.searchParams.has('query') && (req.headers.accept ?? '').includes('text/html');
}

export function sendGraphiQLPage(res: ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...SECURITY_HEADERS });
  res.end(PAGE);
}

const files = new Map<string, Buffer>();

export async function serveGraphiQLAsset(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD')
    throw new AppError('METHOD_NOT_ALLOWED', `Method ${req.method} is not allowed here; use GET`, undefined, {
      allow: 'GET',
    });
  const name = url.pathname.slice(GRAPHIQL_ASSETS.length);
  if (name === 'init.js') {
    res.writeHead(200, {
      'content-type': 'text/javascript; charset=utf-8',
      'cache-control': 'no-cache',
      ...SECURITY_HEADERS,
    });
    res.end(INIT);
    return;
  }
  const asset = ASSETS[name];
  if (!asset) throw new AppError('NOT_FOUND', `No GraphiQL asset ${name}`);
  let body = files.get(name);
  if (!body) {
    // The browser bundles are files of the packages, not exported modules: find them next to package.json.
    body = await fs.promises.readFile(
      path.join(path.dirname(require.resolve(`${asset.pkg}/package.json`)), asset.file),
    );
    files.set(name, body);
  }
  res.writeHead(200, {
    'content-type': `${asset.type}; charset=utf-8`,
    'cache-control': 'public, max-age=86400',
    ...SECURITY_HEADERS,
  });
  res.end(req.method === 'HEAD' ? undefined : body);
}
