import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { ChildMessage, ParentMessage } from './pglite-server';

export interface EmbeddedPostgres {
  /** Connection URL of the loopback server. */
  url: string;
  port: number;
  /** The child's process id (tests kill it to drill a crash). */
  pid: number;
  /** Resolves when the child ends, however it ends. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Closes the database and ends the child process. */
  stop(): Promise<void>;
}

/** Settings of the embedded server that an operator may tune. */
export interface EmbeddedSettings {
  /** PostgreSQL's shared_buffers, in megabytes; PGlite's own default (128) when absent. */
  sharedBuffersMb?: number;
}

const START_TIMEOUT_MS = 60_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Starts PGlite in a child process on `dataDir` and resolves once it accepts connections. PGlite has one backend
 * session, so callers must use a pool of exactly one connection (the service lets one more in while a dropped one
 * closes; more are only for tools such as the
 * benchmark that take turns).
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  maxConnections = 1,
  port = 0,
  settings: EmbeddedSettings = {},
): Promise<EmbeddedPostgres> {
  fs.mkdirSync(dataDir, { recursive: true });
  const child = fork(path.join(__dirname, 'pglite-server.js'), [], {
    env: {
      ...process.env,
      PGLITE_DATA_DIR: dataDir,
      PGLITE_MAX_CONNECTIONS: String(maxConnections),
      PGLITE_PORT: String(port),
      PGLITE_SHARED_BUFFERS_MB: settings.sharedBuffersMb ? String(settings.sharedBuffersMb) : '',
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });

  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const servedPort = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`embedded PostgreSQL did not start within ${START_TIMEOUT_MS / 1000}s (data dir ${dataDir})`));
    }, START_TIMEOUT_MS);
    child.on('message', (message: ChildMessage) => {
      clearTimeout(timer);
      if (message.type === 'ready') resolve(message.port);
      else reject(new Error(`embedded PostgreSQL failed to start on ${dataDir}: ${message.message}`));
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `embedded PostgreSQL exited during start-up with code ${code} (is ${dataDir} in use by another process?)`,
        ),
      );
    });
  });

  return {
    url: `postgresql://postgres:postgres@127.0.0.1:${servedPort}/postgres`,
    port: servedPort,
    pid: child.pid as number,
    exited,
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.send({ type: 'shutdown' } satisfies ParentMessage);
  });
}
