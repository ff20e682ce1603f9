import path from 'node:path';

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
  /** Seed the deterministic demo data when the database holds no company. */
  seedDemoData: boolean;
  logLevel: LogLevel;
  /** How long a graceful shutdown waits for in-flight requests before closing them. */
  shutdownTimeoutMs: number;
  /** Largest request body accepted, in bytes. */
  maxBodyBytes: number;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';
const LOG_LEVELS: LogLevel[] = ['debug', 'info', 'warn', 'error', 'silent'];

export class ConfigError extends Error {}

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

/** Reads and validates the configuration; throws ConfigError naming the bad variable. */
export function loadConfig(env: Env = process.env): AppConfig {
  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const databaseUrl = env.DATABASE_URL?.trim() || null;
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  }
  return {
    port: readInt(env, 'PORT', 8080, 0, 65535),
    host: env.HOST?.trim() || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR?.trim() || './data'),
    databaseUrl,
    dbPoolSize: readInt(env, 'DB_POOL_SIZE', 10, 1, 200),
    seedDemoData: readBool(env, 'SEED_DEMO_DATA', true),
    logLevel,
    shutdownTimeoutMs: readInt(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    maxBodyBytes: readInt(env, 'MAX_BODY_BYTES', 1_048_576, 1024, 100 * 1_048_576),
  };
}
