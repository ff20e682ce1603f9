/**
 * `npm start`: the service and the web front end with one command. The service runs as `dist/src/main.js` (PORT,
 * 8080) and the front end as `web/server.js` (WEB_PORT, 3000) told the service's real address; both print their
 * banners and log JSON lines on stderr. A signal stops both; when either exits, the other is stopped too.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';

const root = path.join(__dirname, '..', '..', '..');
const children: ChildProcess[] = [];
let stopping = false;

function stopAll(code: number): void {
  if (stopping) return;
  stopping = true;
  process.exitCode = code;
  for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
}

function watch(child: ChildProcess, name: string): void {
  children.push(child);
  child.once('exit', (code, signal) => {
    if (!stopping) process.stderr.write(`${name} exited (${signal ?? code}); stopping the other process\n`);
    stopAll(stopping ? (process.exitCode as number) ?? 0 : code ?? 1);
  });
}

const service = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], { stdio: ['ignore', 'pipe', 'inherit'] });
watch(service, 'The service');
readline.createInterface({ input: service.stdout! }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
  if (!url || stopping) return;
  // The front end reaches the service where it listens; browsers get NEXT_PUBLIC_API_URL when set, else the same.
  const web = spawn(process.execPath, [path.join(root, 'web', 'server.js')], {
    cwd: path.join(root, 'web'),
    stdio: 'inherit',
    env: { ...process.env, API_URL: process.env.API_URL || url, NEXT_PUBLIC_API_URL: process.env.NEXT_PUBLIC_API_URL || url },
  });
  watch(web, 'The web front end');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(0));
