import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { companiesPage, companyPage, errorPage } from './pages';
import { accessPage, chatPage, CHAT_SCRIPT, comparePage, dashboardPage, searchPage, signInPage, type Session } from './dashboard';
import { ServiceClient, ServiceError } from './service';
import { parseSseStream } from '../../src/shared/sse';

export interface WebConfig {
  port: number;
  host: string;
  /** The service as the web server reaches it (API_URL). */
  apiUrl: string;
  /** The service as a browser reaches it (NEXT_PUBLIC_API_URL), shown in the pages' links to the API. */
  publicApiUrl: string;
  /** Seconds a rendered page is served from the cache before it is rendered again. */
  revalidateSeconds: number;
  /** The session cookie gets the Secure flag (turn off for plain-HTTP localhost). */
  cookieSecure: boolean;
}

export function loadWebConfig(env: Record<string, string | undefined> = process.env): WebConfig {
  const apiUrl = (env.API_URL?.trim() || 'http://127.0.0.1:8080').replace(/\/$/, '');
  return {
    port: Number(env.WEB_PORT ?? 3000),
    host: env.WEB_HOST?.trim() || '0.0.0.0',
    apiUrl,
    publicApiUrl: (env.NEXT_PUBLIC_API_URL?.trim() || apiUrl).replace(/\/$/, ''),
    revalidateSeconds: Number(env.WEB_REVALIDATE_SECONDS ?? 3600),
    cookieSecure: !['0', 'false', 'no', 'off'].includes((env.COOKIE_SECURE ?? 'true').toLowerCase()),
  };
}

const PAGE_SIZE = 20;

/** Rendered pages by URL, each kept for `revalidateSeconds` (incremental regeneration: stale pages are re-rendered). */
class PageCache {
  private readonly pages = new Map<string, { html: string; at: number }>();
  constructor(private readonly seconds: number) {}

  async get(key: string, fresh: boolean, render: () => Promise<string>): Promise<{ html: string; age: number }> {
    const hit = this.pages.get(key);
    const age = hit ? (Date.now() - hit.at) / 1000 : Infinity;
    if (hit && !fresh && age < this.seconds) return { html: hit.html, age };
    const html = await render();
    if (this.pages.size > 5000) this.pages.clear();
    this.pages.set(key, { html, at: Date.now() });
    return { html, age: 0 };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(payload), 'cache-control': 'no-store' });
  res.end(payload);
}

function sendHtml(res: ServerResponse, status: number, markup: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; script-src 'self' 'unsafe-inline'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(markup);
}

/** The service's error, or a 502 when the service cannot be reached. */
function asServiceError(error: unknown): ServiceError {
  if (error instanceof ServiceError) return error;
  return new ServiceError(502, 'UPSTREAM_ERROR', `The financial insights service is not reachable: ${(error as Error).message}`);
}

const TICKER = /^[A-Za-z0-9.\-]{1,16}$/;
const SESSION_COOKIE = 'fis_web_session';

/** The signed-in user from the session cookie (the service's token; the service checks it on every call). */
function sessionOf(req: IncomingMessage): Session | null {
  const cookie = (req.headers.cookie ?? '').split(';').map((c) => c.trim()).find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  const token = cookie?.slice(SESSION_COOKIE.length + 1);
  if (!token) return null;
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { role?: string; exp?: number };
    if (!payload.role || (payload.exp && payload.exp * 1000 < Date.now())) return null;
    return { token, role: payload.role };
  } catch {
    return null;
  }
}

const isAnalyst = (session: Session | null): session is Session => session !== null && (session.role === 'analyst' || session.role === 'admin');

async function readForm(req: IncomingMessage, limit = 16_384): Promise<URLSearchParams> {
  let body = '';
  for await (const chunk of req) {
    body += chunk;
    if (body.length > limit) throw new ServiceError(413, 'PAYLOAD_TOO_LARGE', 'The form is too large');
  }
  const type = String(req.headers['content-type'] ?? '');
  if (type.includes('application/json')) {
    try {
      return new URLSearchParams(Object.entries(JSON.parse(body || '{}') as Record<string, string>));
    } catch {
      throw new ServiceError(400, 'BAD_REQUEST', 'The body is not valid JSON');
    }
  }
  return new URLSearchParams(body);
}

export function createWebServer(config: WebConfig) {
  const service = new ServiceClient(config.apiUrl);
  const cache = new PageCache(config.revalidateSeconds);

  async function route(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const parts = url.pathname.split('/').filter(Boolean).map(decodeURIComponent);
    if (req.method === 'POST') return post(req, res, url);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, POST');
      return sendJson(res, 405, { success: false, error: { code: 'METHOD_NOT_ALLOWED', message: `Method ${req.method} is not allowed; use GET` } });
    }
    if (url.pathname === '/assets/chat.js') {
      res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'public, max-age=300' });
      return void res.end(CHAT_SCRIPT);
    }
    const dashboard = await dashboardGet(req, res, url);
    if (dashboard) return;
    // JSON routes that relay the service by ticker (keys never reach the browser).
    if (parts[0] === 'api') {
      try {
        if (parts[1] === 'companies' && parts.length === 2) {
          const limit = Math.min(100, Math.max(1, Number(url.searchParams.get('limit') ?? PAGE_SIZE) || PAGE_SIZE));
          const offset = Math.max(0, Number(url.searchParams.get('offset') ?? 0) || 0);
          const { data, meta } = await service.companies(url.searchParams.get('sector'), limit, offset);
          return sendJson(res, 200, { success: true, data: data.map(({ ticker, name, sector }) => ({ ticker, name, sector })), meta });
        }
        if (parts[1] === 'companies' && parts.length === 3 && TICKER.test(parts[2])) {
          return sendJson(res, 200, { success: true, data: await service.profile(parts[2]) });
        }
        if (parts[1] === 'financials' && parts.length === 3 && TICKER.test(parts[2])) {
          const financials = await service.financials(parts[2], url.searchParams.get('period'), 8);
          return sendJson(res, 200, { success: true, data: { ticker: financials.ticker, currency: financials.currency, income_statement: financials.incomeStatement, history: financials.history } });
        }
        return sendJson(res, 404, { success: false, error: { code: 'NOT_FOUND', message: `No route GET ${url.pathname}` } });
      } catch (error) {
        const failure = asServiceError(error);
        return sendJson(res, failure.status, { success: false, error: { code: failure.code, message: failure.message } });
      }
    }
    if (parts.length === 0) {
      res.writeHead(302, { location: '/companies' });
      return void res.end();
    }
    // Pages, rendered on the server and cached; a hard reload (Cache-Control: no-cache) renders them afresh.
    const fresh = /no-cache/i.test(String(req.headers['cache-control'] ?? ''));
    try {
      if (parts[0] === 'companies' && parts.length === 1) {
        const sector = url.searchParams.get('sector') || null;
        const pageNumber = Math.max(1, Math.floor(Number(url.searchParams.get('page') ?? 1)) || 1);
        const key = `companies|${sector}|${pageNumber}`;
        const { html, age } = await cache.get(key, fresh, async () => {
          const [{ data, meta }, sectors] = await Promise.all([service.companies(sector, PAGE_SIZE, (pageNumber - 1) * PAGE_SIZE), service.sectors()]);
          return companiesPage(data, meta?.total ?? data.length, sectors, sector, pageNumber, PAGE_SIZE);
        });
        return sendHtml(res, 200, html, { age: String(Math.floor(age)), 'cache-control': `public, max-age=0, s-maxage=${config.revalidateSeconds}` });
      }
      if (parts[0] === 'companies' && parts.length === 2 && TICKER.test(parts[1])) {
        const ticker = parts[1].toUpperCase();
        const period = url.searchParams.get('period');
        const { html, age } = await cache.get(`company|${ticker}|${period}`, fresh, async () => {
          const [profile, financials, definitions] = await Promise.all([service.profile(ticker), service.financials(ticker, period, 8), service.ratioDefinitions()]);
          return companyPage({ profile, financials, definitions, publicApiUrl: config.publicApiUrl });
        });
        return sendHtml(res, 200, html, { age: String(Math.floor(age)), 'cache-control': `public, max-age=0, s-maxage=${config.revalidateSeconds}` });
      }
      return sendHtml(res, 404, errorPage(404, `There is no page at ${url.pathname}.`));
    } catch (error) {
      const failure = asServiceError(error);
      return sendHtml(res, failure.status, errorPage(failure.status, failure.message));
    }
  }

  /** The dashboard's pages (GET): sign-in, and the analyst-only search, compare and chat. True when served. */
  async function dashboardGet(req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
    const session = sessionOf(req);
    const noStore = { 'cache-control': 'no-store' };
    if (url.pathname === '/signin') {
      sendHtml(res, 200, signInPage(null, url.searchParams.get('next') ?? '/dashboard'), noStore);
      return true;
    }
    if (!['/dashboard', '/search', '/compare', '/chat'].includes(url.pathname)) return false;
    if (!isAnalyst(session)) {
      sendHtml(res, session ? 403 : 401, accessPage(session, url.pathname), noStore);
      return true;
    }
    if (url.pathname === '/dashboard') sendHtml(res, 200, dashboardPage(session), noStore);
    else if (url.pathname === '/chat') sendHtml(res, 200, chatPage(null, ''), noStore);
    else {
      const { data: companies } = await service.companies(null, 100, 0);
      if (url.pathname === '/search') {
        const query = url.searchParams.get('q')?.trim() ?? '';
        const companyId = Number(url.searchParams.get('company')) || null;
        const hits = query ? await service.search(session.token, query, companyId ? [companyId] : null) : null;
        sendHtml(res, 200, searchPage(query, companies, companyId, hits), noStore);
      } else {
        const chosen = url.searchParams.getAll('company').map(Number).filter((n) => Number.isInteger(n) && n > 0);
        const period = url.searchParams.get('period')?.trim() || 'latest-fy';
        let result = null;
        let message: string | null = null;
        if (chosen.length > 0) {
          try {
            result = await service.compare(session.token, chosen, period);
          } catch (error) {
            message = asServiceError(error).message;
          }
        }
        sendHtml(res, 200, comparePage(companies, chosen, period, result, message), noStore);
      }
    }
    return true;
  }

  /** Form posts (sign-in and out, the no-JavaScript chat) and the streaming chat relay. */
  async function post(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    // A form of another site must not act with this site's cookie.
    const origin = req.headers.origin;
    if (origin && origin !== 'null' && new URL(origin).host !== req.headers.host) {
      return sendJson(res, 403, { success: false, error: { code: 'FORBIDDEN', message: 'Cross-site form posts are refused' } });
    }
    const cookie = (value: string, maxAge: number) => `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${config.cookieSecure ? '; Secure' : ''}`;
    if (url.pathname === '/signin') {
      const form = await readForm(req);
      const next = form.get('next')?.startsWith('/') ? (form.get('next') as string) : '/dashboard';
      try {
        const signed = await service.signIn(form.get('api_key')?.trim() ?? '');
        res.writeHead(303, { location: next, 'set-cookie': cookie(signed.token, signed.expiresIn) });
        return void res.end();
      } catch (error) {
        return sendHtml(res, 401, signInPage(`Sign-in failed: ${asServiceError(error).message}`, next), { 'cache-control': 'no-store' });
      }
    }
    if (url.pathname === '/signout') {
      res.writeHead(303, { location: '/companies', 'set-cookie': cookie('', 0) });
      return void res.end();
    }
    const session = sessionOf(req);
    if (url.pathname === '/chat' || url.pathname === '/api/chat') {
      if (!isAnalyst(session)) return sendJson(res, session ? 403 : 401, { success: false, error: { code: session ? 'FORBIDDEN' : 'UNAUTHENTICATED', message: 'Chat needs a signed-in analyst' } });
      const form = await readForm(req);
      const question = form.get('question')?.trim() ?? '';
      if (!question) return sendJson(res, 400, { success: false, error: { code: 'BAD_USER_INPUT', message: 'question must not be empty' } });
      const controller = new AbortController();
      res.once('close', () => controller.abort());
      const upstream = await service.chatStream(session.token, question, form.get('conversation_id') || null, controller.signal);
      if (url.pathname === '/api/chat') {
        // Relayed as it comes: the browser sees each token when the service sends it.
        res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/event-stream', 'cache-control': 'no-cache' });
        try {
          for await (const chunk of upstream.body ?? []) res.write(chunk);
        } catch (error) {
          if (!controller.signal.aborted) throw error; // the browser left: the service's generation is cancelled with it
        }
        return void res.end();
      }
      let payload: { answer?: string; citations?: [] } | null = null;
      if (upstream.body) for await (const event of parseSseStream(upstream.body)) if (event.event === 'done') payload = event.data;
      return sendHtml(res, 200, chatPage({ text: payload?.answer ?? 'No answer.', citations: payload?.citations ?? [] }, question), { 'cache-control': 'no-store' });
    }
    return sendJson(res, 404, { success: false, error: { code: 'NOT_FOUND', message: `No route POST ${url.pathname}` } });
  }

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://web.invalid');
      decodeURIComponent(url.pathname);
    } catch {
      return sendJson(res, 400, { success: false, error: { code: 'BAD_REQUEST', message: 'Malformed URL' } });
    }
    route(req, res, url).catch((error: unknown) => {
      process.stderr.write(`${JSON.stringify({ level: 'error', message: 'web request failed', error: (error as Error)?.stack ?? String(error) })}\n`);
      if (!res.headersSent) sendHtml(res, 500, errorPage(500, 'The page could not be rendered.'));
      else res.destroy();
    });
  });

  return {
    server,
    async listen(): Promise<string> {
      await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
      const { port } = server.address() as AddressInfo;
      return `http://${config.host === '0.0.0.0' ? '127.0.0.1' : config.host}:${port}`;
    },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
