import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a program in a child process without blocking this one, which may be serving the shared app it talks to. */
export function runProgram(
  command: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<CliResult> {
  const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs a compiled CLI (`src/cli/<name>.js`) the same way. */
export function runCli(name: string, args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  const script = path.join(__dirname, '..', '..', 'src', 'cli', `${name}.js`);
  return runProgram(process.execPath, [script, ...args], { env: { LOG_LEVEL: 'warn', ...env } });
}

/** Whether python3 is installed (the Python SDK's tests and examples are skipped, saying so, where it is not). */
export const hasPython = (): boolean => spawnSync('python3', ['--version']).status === 0;
