import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

const MAIN = path.join(__dirname, '..', '..', 'src', 'main.js');

export interface ServiceProcess {
  child: ChildProcess;
  url: string;
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts the real service (`node dist/src/main.js`) as its own process and waits for its start-up banner. */
export function startServiceProcess(env: Record<string, string | undefined>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in time:\n${output}`)), 120_000);
    const onData = () => {
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (!match) return;
      clearTimeout(timer);
      child.stdout!.off('data', onData);
      resolve({ child, url: match[1], output: () => output, exited });
    };
    child.stdout!.on('data', onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`service exited with code ${code} during start-up:\n${output}`));
    });
  });
}

/** Runs the service to completion and returns its exit code and output (for start-up failures). */
export async function runServiceToExit(
  env: Record<string, string | undefined>,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, [MAIN], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { code, output };
}
