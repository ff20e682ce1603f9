/**
 * Slow clients (slowloris): connections that send their headers, or their body, a byte at a time and never finish.
 * Each must be answered 408 and closed at the documented timeout (20 s for the headers, 60 s for the whole request),
 * while ordinary readers keep being served all along.
 */
import net from 'node:net';
import { AnswerTally, type DrillResult } from '../drill';
import { freshEmbeddedDatabase, withTeardown, sleep, startDrillService, type DrillService } from '../service';

export const name = 'slow-clients';

const SLOW_CONNECTIONS = 50;
const HEADERS_TIMEOUT_MS = 20_000;
const REQUEST_TIMEOUT_MS = 60_000;
/** How late a timeout may fire: the server looks for expired requests every second. */
const TOLERANCE_MS = 2_000;

interface SlowOutcome {
  status: number;
  ms: number;
}

/** Opens a connection that writes `head`, then one byte of `trickle` every second until the server answers. */
function slowRequest(url: string, head: string, trickle: string): Promise<SlowOutcome> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    let answer = '';
    let sent = 0;
    const socket = net.connect(Number(port), hostname, () => socket.write(head));
    const timer = setInterval(() => {
      if (sent < trickle.length && socket.writable) socket.write(trickle[sent++]);
    }, 1_000);
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), ms: performance.now() - started });
    });
  });
}

async function readWhile(service: DrillService, tally: AnswerTally, stopped: () => boolean): Promise<number> {
  let served = 0;
  while (!stopped() && !service.exited()) {
    const answer = await service.call('GET', '/v1/companies/1');
    if (answer) tally.record('GET /v1/companies/1', answer, answer.body);
    else tally.recordNoAnswer();
    if (answer?.status === 200) served++;
    await sleep(200);
  }
  return served;
}

function judge(label: string, outcomes: SlowOutcome[], timeoutMs: number, missed: string[]): string {
  const timedOut = outcomes.filter((outcome) => outcome.status === 408);
  const times = outcomes.map((outcome) => outcome.ms / 1000);
  if (timedOut.length !== outcomes.length)
    missed.push(
      `${label}: ${outcomes.length - timedOut.length} of ${outcomes.length} not answered 408 (statuses ${[...new Set(outcomes.map((o) => o.status))].join(', ')})`,
    );
  const late = outcomes.filter((outcome) => outcome.ms < timeoutMs || outcome.ms > timeoutMs + TOLERANCE_MS);
  if (late.length > 0)
    missed.push(`${label}: ${late.length} answered outside ${timeoutMs / 1000}–${(timeoutMs + TOLERANCE_MS) / 1000} s`);
  return `${label}: ${timedOut.length} of ${outcomes.length} answered 408 after ${Math.min(...times).toFixed(1)}–${Math.max(...times).toFixed(1)} s`;
}

export async function run(): Promise<DrillResult> {
  const tally = new AnswerTally();
  const missed: string[] = [];
  const notes: string[] = [];
  let crashes = 0;
  await withTeardown(notes, async (teardown) => {
    const service = await startDrillService(freshEmbeddedDatabase(teardown));
    teardown.add('service', () => service.stop());
    let done = false;
    const reads = readWhile(service, tally, () => done);
    const headers = Array.from({ length: SLOW_CONNECTIONS }, () =>
      slowRequest(service.url, 'GET /v1/companies/1 HTTP/1.1\r\n', `Host: x\r\nX-Slow: ${'a'.repeat(200)}`),
    );
    const bodies = Array.from({ length: SLOW_CONNECTIONS }, () =>
      slowRequest(
        service.url,
        `POST /v1/search HTTP/1.1\r\nHost: x\r\nx-api-key: ${service.key}\r\ncontent-type: application/json\r\ncontent-length: 500\r\n\r\n{"query": "`,
        'a'.repeat(400),
      ),
    );
    notes.push(judge('slow headers', await Promise.all(headers), HEADERS_TIMEOUT_MS, missed));
    notes.push(judge('slow body', await Promise.all(bodies), REQUEST_TIMEOUT_MS, missed));
    done = true;
    const served = await reads;
    notes.push(`a reader was served ${served} times meanwhile`);
    if (served === 0) missed.push('no reader was served while the slow clients held their connections');
    crashes = service.exited() ? 1 : 0;
  });
  return { ...tally.counts(), crashes, lostWrites: 0, recoveryMs: [], notes, missedTargets: missed };
}
