import path from 'node:path';
import proxyaddr from 'proxy-addr';
import { isWellFormedKey } from '../shared/key-format';
import type { LogLevel } from '../shared/logger';

/** Every setting the service reads from the environment, validated once at start-up. */
export interface AppConfig {
  port: number;
  host: string;
  /** Folder of the embedded PostgreSQL (PGlite); used only when databaseUrl is not set. */
  dataDir: string;
  /** External PostgreSQL server; when set the embedded database is not started. */
  databaseUrl: string | null;
  /** Connection pool size for an external server (the embedded one always uses exactly one). */
  dbPoolSize: number;
  /** How many times a dead embedded database child is restarted (with doubling back-off) before the process exits. */
  dbRestartAttempts: number;
  /** Shared buffers of the embedded database, in megabytes (its page cache, held in memory for the process's life). */
  dbSharedBuffersMb: number;
  /** Send the hot reads as named (prepared) statements, planned once per session (see prepared-statements.repository). */
  dbPreparedStatements: boolean;
  /** Seed the deterministic demo data when the database holds no company. */
  seedDemoData: boolean;
  logLevel: LogLevel;
  /** How long a graceful shutdown waits for in-flight requests before closing them. */
  shutdownTimeoutMs: number;
  /** Largest request body accepted, in bytes (document ingestion has its own, larger limit). */
  maxBodyBytes: number;
  /** Largest body of POST /v1/documents, in bytes. */
  maxDocumentBytes: number;
  /** An OpenAI-compatible provider; without a key everything AI runs on the built-in components. */
  openaiApiKey: string | null;
  openaiBaseUrl: string | null;
  embeddingModel: string;
  /** Vector size of the embedding model; asked from the provider at start-up when not set. */
  embeddingDimensions: number | null;
  /** Timeout of one call to the provider. */
  aiTimeoutMs: number;
  /** Chat model of the provider, used by the AI writer when OPENAI_API_KEY is set. */
  llmModel: string;
  /** Deadline of one whole AI answer (summary, comparison or chat), retries included. */
  llmTimeoutMs: number;
  /** AI answers generated at once; more wait for a slot. */
  aiMaxConcurrency: number;
  /** `production` turns GraphQL introspection and field suggestions off by default. */
  environment: 'production' | 'development';
  /** Company and statement reads need no credentials. */
  publicReads: boolean;
  /** HMAC secret of access tokens; when not set, a generated one is kept in the database (shared by every instance). */
  jwtSecret: string | null;
  /** An admin key (of the fis_live_ shape) stored at start-up when the database does not hold it yet. */
  adminApiKey: string | null;
  /** The web front end's key (WEB_API_KEY): stored at start-up as a viewer key that forwards its visitors. */
  webApiKey: string | null;
  /** Bearer token GET /metrics requires; open when not set. */
  metricsToken: string | null;
  /** Serve /metrics on this port only (not on the API port); null keeps it on the API port. */
  metricsPort: number | null;
  jwtIssuer: string;
  jwtAudience: string;
  jwtTtlSeconds: number;
  /** Session cookies get the Secure flag (turn off only for plain-HTTP localhost). */
  cookieSecure: boolean;
  /** Requests per window, per caller, for each route class. */
  rateLimits: Record<'reads' | 'search' | 'ai', { limit: number; windowSeconds: number }>;
  /** Shared store of rate-limit counters; in memory when not set. */
  redisUrl: string | null;
  /** Which peers are proxies whose X-Forwarded-For names the client (a hop count, or addresses and ranges); null: none. */
  trustProxy: TrustProxy;
  graphqlIntrospection: boolean;
  // The shape of GraphQLLimits (described in src/limits/graphql-limits.ts), spelled out: importing it would close an import circle (limits → catalog → rate limiter → logger → config).
  graphqlLimits: {
    maxDepth: number;
    maxFields: number;
    maxAliases: number;
    maxCost: number;
    maxDocumentBytes: number;
    maxTokens: number;
    maxDirectives: number;
  };
  /** User-Agent the SEC requires of automated downloads ("Company name admin@example.com"). */
  secUserAgent: string | null;
}

export type TrustProxy = { hops: number } | { ranges: string[] } | null;

const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export class ConfigError extends Error {}

/** PGlite's own default; docs/configuration.md (DB_SHARED_BUFFERS_MB) says what a larger cache costs and buys. */
export const DEFAULT_SHARED_BUFFERS_MB = 128;

type Env = Record<string, string | undefined>;

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readBool(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const normalized = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(normalized)) return true;
  if (['0', 'false', 'no', 'off'].includes(normalized)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function readRedisUrl(env: Env): string | null {
  const raw = env.REDIS_URL?.trim();
  if (!raw) return null;
  if (!/^rediss?:\/\//.test(raw)) throw new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL, got "${raw}"`);
  return raw;
}

function readUrl(env: Env, name: string): string | null {
  const raw = env[name]?.trim();
  if (!raw) return null;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
    return raw;
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL, got "${raw}"`);
  }
}

/**
 * TRUST_PROXY: off (unset, "false", "0"), a hop count ("1": the socket's peer is the one proxy), or a comma-separated
 * list of proxy addresses and CIDR ranges (proxy-addr's notation, with its names loopback, linklocal, uniquelocal).
 */
function readTrustProxy(env: Env): TrustProxy {
  const raw = env.TRUST_PROXY?.trim() ?? '';
  if (raw === '' || ['false', 'off', 'no', '0'].includes(raw.toLowerCase())) return null;
  if (/^\d+$/.test(raw)) return { hops: readInt(env, 'TRUST_PROXY', 0, 1, 32) };
  const ranges = raw.split(',').map((entry) => entry.trim());
  try {
    if (ranges.some((entry) => entry === '')) throw new Error('an empty entry');
    proxyaddr.compile(ranges);
  } catch (error) {
    throw new ConfigError(
      `TRUST_PROXY must be a hop count or a comma-separated list of IP addresses and CIDR ranges, got "${raw}" (${(error as Error).message})`,
    );
  }
  return { ranges };
}

/** A rate like "600/60": requests per window of seconds. */
function readRate(env: Env, name: string, fallback: string): { limit: number; windowSeconds: number } {
  const raw = env[name]?.trim() || fallback;
  const match = /^(\d{1,9})\/(\d{1,6})$/.exec(raw);
  if (!match || Number(match[1]) < 1 || Number(match[2]) < 1) {
    throw new ConfigError(`${name} must be <requests>/<seconds>, e.g. 600/60, got "${raw}"`);
  }
  return { limit: Number(match[1]), windowSeconds: Number(match[2]) };
}

/** Reads and validates the configuration; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const environment = (env.NODE_ENV?.trim() || 'development') === 'production' ? 'production' : 'development';
  const jwtSecret = env.JWT_SECRET?.trim() || null;
  if (jwtSecret !== null && Buffer.byteLength(jwtSecret) < 32)
    throw new ConfigError('JWT_SECRET must be at least 32 bytes');
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  const adminApiKey = env.ADMIN_API_KEY?.trim() || null;
  if (adminApiKey !== null && !isWellFormedKey(adminApiKey)) {
    throw new ConfigError(
      'ADMIN_API_KEY must be a key of this service (fis_live_…, with its checksum): make one with `npm run keys -- generate`',
    );
  }
  const webApiKey = env.WEB_API_KEY?.trim() || null;
  if (webApiKey !== null && !isWellFormedKey(webApiKey)) {
    throw new ConfigError(
      'WEB_API_KEY must be a key of this service (fis_live_…, with its checksum): make one with `npm run keys -- generate`',
    );
  }
  const metricsToken = env.METRICS_TOKEN?.trim() || null;
  if (metricsToken !== null && metricsToken.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return {
    port: readInt(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    dbPoolSize: readInt(env, 'DB_POOL_SIZE', 10, 1, 200),
    dbRestartAttempts: readInt(env, 'DB_RESTART_ATTEMPTS', 5, 0, 20),
    // PGlite's WebAssembly memory is at most 2 GB, and the buffers must leave room for the rest of PostgreSQL.
    dbSharedBuffersMb: readInt(env, 'DB_SHARED_BUFFERS_MB', DEFAULT_SHARED_BUFFERS_MB, 16, 1024),
    dbPreparedStatements: readBool(env, 'DB_PREPARED_STATEMENTS', true),
    seedDemoData: readBool(env, 'SEED_DEMO_DATA', true),
    logLevel,
    shutdownTimeoutMs: readInt(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    maxBodyBytes: readInt(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 100 * 1_048_576),
    maxDocumentBytes: readInt(env, 'MAX_DOCUMENT_BYTES', 10 * 1_048_576, 1024, 200 * 1_048_576),
    openaiApiKey: env.OPENAI_API_KEY?.trim() || null,
    openaiBaseUrl: readUrl(env, 'OPENAI_BASE_URL'),
    embeddingModel: env.EMBEDDING_MODEL?.trim() || 'text-embedding-3-small',
    embeddingDimensions: env.EMBEDDING_DIMENSIONS?.trim() ? readInt(env, 'EMBEDDING_DIMENSIONS', 0, 1, 16_000) : null,
    aiTimeoutMs: readInt(env, 'AI_TIMEOUT_MS', 30_000, 100, 600_000),
    llmModel: env.LLM_MODEL?.trim() || 'gpt-4o-mini',
    llmTimeoutMs: readInt(env, 'LLM_TIMEOUT_MS', 60_000, 100, 600_000),
    aiMaxConcurrency: readInt(env, 'AI_MAX_CONCURRENCY', 4, 1, 256),
    environment,
    publicReads: readBool(env, 'PUBLIC_READS', true),
    jwtSecret,
    adminApiKey,
    webApiKey,
    metricsToken,
    metricsPort: env.METRICS_PORT?.trim() ? readInt(env, 'METRICS_PORT', 0, 0, 65535) : null,
    jwtIssuer: env.JWT_ISSUER?.trim() || 'financial-insights-service',
    jwtAudience: env.JWT_AUDIENCE?.trim() || 'fis-api',
    jwtTtlSeconds: readInt(env, 'JWT_TTL_SECONDS', 900, 30, 86_400),
    cookieSecure: readBool(env, 'COOKIE_SECURE', true),
    rateLimits: {
      reads: readRate(env, 'RATE_LIMIT_READS', '600/60'),
      search: readRate(env, 'RATE_LIMIT_SEARCH', '120/60'),
      ai: readRate(env, 'RATE_LIMIT_AI', '30/60'),
    },
    redisUrl: readRedisUrl(env),
    trustProxy: readTrustProxy(env),
    secUserAgent: env.SEC_USER_AGENT?.trim() || null,
    graphqlIntrospection: readBool(env, 'GRAPHQL_INTROSPECTION', environment !== 'production'),
    graphqlLimits: {
      // 15: the standard introspection query (GraphiQL's) is 15 deep; the schema's own data is at most 5.
      maxDepth: readInt(env, 'GRAPHQL_MAX_DEPTH', 15, 2, 100),
      maxFields: readInt(env, 'GRAPHQL_MAX_FIELDS', 500, 10, 100_000),
      maxAliases: readInt(env, 'GRAPHQL_MAX_ALIASES', 30, 0, 10_000),
      maxCost: readInt(env, 'GRAPHQL_MAX_COST', 20_000, 10, 10_000_000),
      // Parser limits: a document is refused by its size, then by its token count, before it is walked at all.
      maxDocumentBytes: readInt(env, 'GRAPHQL_MAX_DOCUMENT_BYTES', 65_536, 1024, 10 * 1_048_576),
      maxTokens: readInt(env, 'GRAPHQL_MAX_TOKENS', 10_000, 100, 1_000_000),
      maxDirectives: readInt(env, 'GRAPHQL_MAX_DIRECTIVES', 100, 0, 100_000),
    },
  };
}
