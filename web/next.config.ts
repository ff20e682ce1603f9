import path from 'node:path';
import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The service's own logs are JSON lines; server.js writes the front end's requests in the same format.
  poweredByHeader: false,
  // Next's cache of pages and reads, except what was rendered while the service refused (cache-handler.js).
  cacheHandler: path.join(__dirname, 'cache-handler.js'),
  // ECharts renders charts to SVG strings on the server; it stays out of the client bundle.
  serverExternalPackages: ['echarts'],
  // The SDK is a package of the same repository (file:../sdk/typescript), so the bundler's root is the repository's.
  turbopack: { root: path.join(__dirname, '..') },
  // unauthorized() / forbidden(): analyst pages answer 401 / 403 with a page that says how to get access.
  experimental: { authInterrupts: true },
};

export default nextConfig;
