import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';

/** The built front end (`npm run build:web`, which `npm test` runs first) as a child process, as `npm start` runs it. */
export interface WebProcess {
  url: string;
  /** Every JSON line it wrote on stderr (its request logs among them). */
  logLines: string[];
  stop(): Promise<void>;
}

const WEB_DIR = path.join(__dirname, '..', '..', '..', 'web');

export async function startWebProcess(env: Record<string, string>): Promise<WebProcess> {
  if (!fs.existsSync(path.join(WEB_DIR, '.next', 'BUILD_ID')))
    throw new Error('web/ is not built: run `npm run build:web` (npm test does)');
  // Next keeps rendered pages and cached reads on disk across runs: each front end under test starts with none, so
  // what a test counts is read from the service it started.
  for (const cache of [
    ['server', 'route-cache'],
    ['cache', 'fetch-cache'],
  ])
    fs.rmSync(path.join(WEB_DIR, '.next', ...cache), { recursive: true, force: true });
  const child: ChildProcess = spawn(process.execPath, ['server.js'], {
    cwd: WEB_DIR,
    env: { ...process.env, WEB_PORT: '0', WEB_HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logLines: string[] = [];
  readline.createInterface({ input: child.stderr! }).on('line', (line) => logLines.push(line));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the web front end did not start: ${logLines.join('\n')}`)),
      60_000,
    );
    child.once('exit', (code) => reject(new Error(`the web front end exited with ${code}: ${logLines.join('\n')}`)));
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      const found = /listening on (http:\/\/\S+)/.exec(line)?.[1];
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
  });
  return {
    url,
    logLines,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
