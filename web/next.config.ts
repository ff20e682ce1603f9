import path from 'node:path';
import type { NextConfig } from 'next';

const nextConfig: NextConfig = {
  // The service's own logs are JSON lines; server.js writes the front end's requests in the same format.
  poweredByHeader: false,
  // ECharts renders charts to SVG strings on the server; it stays out of the client bundle.
  serverExternalPackages: ['echarts'],
  // web/ is its own package inside the service's repository: its root is here, not at the repository's lockfile.
  turbopack: { root: path.join(__dirname) },
  // unauthorized() / forbidden(): analyst pages answer 401 / 403 with a page that says how to get access.
  experimental: { authInterrupts: true },
};

export default nextConfig;
