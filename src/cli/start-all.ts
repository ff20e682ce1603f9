/**
 * `npm start`: the service and the web front end with one command. The service runs as `dist/src/main.js` (PORT,
 * 8080) and the front end as `web/server.js` (WEB_PORT, 3000) told the service's real address; both print their
 * banners and log JSON lines on stderr. A signal stops both; when either exits, the other is stopped too.
 * Both get the front end's own key (WEB_API_KEY): the service stores it as a viewer key that forwards visitors, the
 * front end reads with it. Unset, one is generated once and kept in DATA_DIR, so restarts reuse it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { generateKey } from '../shared/key-format';

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
    stopAll(stopping ? ((process.exitCode as number) ?? 0) : (code ?? 1));
  });
}

/** WEB_API_KEY as set, or the one kept in DATA_DIR (made on the first start). */
function webApiKey(): string {
  const given = process.env.WEB_API_KEY?.trim();
  if (given) return given;
  const dataDir = path.resolve(process.env.DATA_DIR?.trim() || './data');
  const file = path.join(dataDir, 'web-api-key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const key = generateKey();
  fs.writeFileSync(file, `${key}\n`, { mode: 0o600 });
  process.stdout.write(`The web front end's service key (WEB_API_KEY) was made and kept in ${file}\n`);
  return key;
}

const keys = { WEB_API_KEY: webApiKey() };
const service = spawn(process.execPath, [path.join(root, 'dist', 'src', 'main.js')], {
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, ...keys },
});
watch(service, 'The service');
readline.createInterface({ input: service.stdout! }).on('line', (line) => {
  process.stdout.write(`${line}\n`);
  const url = /listening on (http:\/\/\S+)/.exec(line)?.[1];
  if (!url || stopping) return;
  // The front end reaches the service where it listens; its pages link to the API at NEXT_PUBLIC_API_URL when set
  // (where browsers reach the service), and name the API path otherwise.
  const web = spawn(process.execPath, [path.join(root, 'web', 'server.js')], {
    cwd: path.join(root, 'web'),
    stdio: 'inherit',
    env: { ...process.env, ...keys, API_URL: process.env.API_URL || url },
  });
  watch(web, 'The web front end');
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => stopAll(0));
