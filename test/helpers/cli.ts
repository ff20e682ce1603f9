import { spawn } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a compiled CLI (`src/cli/<name>.js`) in a child process without blocking this one, which may be serving the
 * shared app the CLI talks to.
 */
export function runCli(name: string, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const script = path.join(__dirname, '..', '..', 'src', 'cli', `${name}.js`);
  const child = spawn(process.execPath, [script, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}
