/**
 * Connection kill (PostgreSQL): 6 writers store documents and 6 clients chat while every backend of the service's
 * database is terminated every 100 ms, as a failover or a pooler recycling connections would. Counts 5xx, whether the
 * process died, acknowledged documents missing afterwards or stored twice, and the time to serve again.
 *
 * The server is FAULTS_PG_ADMIN_URL, else the server of DATABASE_URL, else the local PostgreSQL
 * (postgres://postgres@127.0.0.1:5432/postgres); the drill works on a throw-away database there.
 */
import crypto from 'node:crypto';
import { Client } from 'pg';
import { Teardown, createThrowawayDatabase, withClient } from '../../bench-support';
import { AnswerTally, type DrillResult } from '../drill';
import { sleep, startDrillService, untilServing, type DrillService } from '../service';
import type { Data, Page } from '../../../test/helpers/http';
import type { Company, Document, IngestedDocument } from '../../../sdk/typescript/src';

export const name = 'connection-kill';

const KILL_EVERY_MS = 100;
const FAULT_SECONDS = 10;
const WRITERS = 6;
const CHATTERS = 6;

function serverUrl(): string {
  const configured = process.env.FAULTS_PG_ADMIN_URL ?? process.env.DATABASE_URL;
  if (!configured) return 'postgres://postgres@127.0.0.1:5432/postgres';
  const url = new URL(configured);
  url.pathname = '/postgres';
  return url.toString();
}

interface Acknowledged {
  id: number;
  title: string;
}

/** Stores uniquely titled documents until `stopped()`; returns the ones the service acknowledged. */
async function writeDocuments(
  service: DrillService,
  tally: AnswerTally,
  companyId: number,
  prefix: string,
  stopped: () => boolean,
): Promise<Acknowledged[]> {
  const acknowledged: Acknowledged[] = [];
  for (let n = 0; !stopped() && !service.exited(); n++) {
    const title = `${prefix}-${n}`;
    const content =
      `Drill note ${title}. Revenue of the quarter grew by ${n} percent while margins held steady.\n\n`.repeat(20);
    const answer = await service.call<Data<IngestedDocument>>('POST', '/v1/documents', {
      company_id: companyId,
      title,
      doc_type: 'note',
      content,
    });
    if (!answer) {
      tally.recordNoAnswer();
      continue;
    }
    tally.record(`POST /v1/documents ${title}`, answer, answer.body);
    if (answer.status === 200 || answer.status === 201)
      acknowledged.push({ id: Number(answer.body!.data.document.id), title });
  }
  return acknowledged;
}

async function chat(
  service: DrillService,
  tally: AnswerTally,
  companyId: number,
  stopped: () => boolean,
): Promise<void> {
  while (!stopped() && !service.exited()) {
    const answer = await service.call('POST', '/v1/ai/chat', {
      messages: [{ role: 'user', content: 'How did revenue and margins change last year?' }],
      company_ids: [companyId],
    });
    if (answer) tally.record('POST /v1/ai/chat', answer, answer.body);
    else tally.recordNoAnswer();
  }
}

/** Terminates every backend of `database` but the killer's own, every KILL_EVERY_MS, until `stopped()`. */
async function killBackends(adminUrl: string, database: string, stopped: () => boolean): Promise<number> {
  const killer = new Client({ connectionString: adminUrl });
  await killer.connect();
  let killed = 0;
  try {
    while (!stopped()) {
      const result = await killer.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
        [database],
      );
      killed += result.rowCount ?? 0;
      await sleep(KILL_EVERY_MS);
    }
  } finally {
    await killer.end();
  }
  return killed;
}

/**
 * Acknowledged documents that the service does not serve back under their title (HTTP, when it lives; else the
 * table), and titles stored more than once.
 */
async function lostOrDuplicated(
  service: DrillService,
  databaseUrl: string,
  prefix: string,
  acknowledged: Acknowledged[],
): Promise<{ lost: number; duplicated: number }> {
  const rows = await withClient(databaseUrl, (client) =>
    client
      .query<{ id: number; title: string }>('SELECT id, title FROM documents WHERE title LIKE $1', [`${prefix}-%`])
      .then((result) => result.rows),
  );
  let lost = 0;
  if (service.exited()) {
    const titleById = new Map(rows.map((row) => [Number(row.id), row.title]));
    lost = acknowledged.filter((write) => titleById.get(write.id) !== write.title).length;
  } else {
    for (const write of acknowledged) {
      const answer = await service.call<Data<Document>>('GET', `/v1/documents/${write.id}`);
      if (answer?.status !== 200 || answer.body!.data.title !== write.title) lost++;
    }
  }
  const perTitle = new Map<string, number>();
  for (const row of rows) perTitle.set(row.title, (perTitle.get(row.title) ?? 0) + 1);
  const duplicated = [...perTitle.values()].filter((count) => count > 1).length;
  return { lost, duplicated };
}

export interface ConnectionKillResult extends DrillResult {
  backendsTerminated: number;
  writesAcknowledged: number;
}

/** The drill on a throw-away database of the server at `serverUrl` (its maintenance database's URL). */
export async function killConnectionsUnderLoad(serverUrl: string, faultSeconds: number): Promise<ConnectionKillResult> {
  const teardown = new Teardown();
  try {
    const database = await createThrowawayDatabase(serverUrl, teardown);
    const databaseName = new URL(database.url).pathname.slice(1);
    const service = await startDrillService({ DATABASE_URL: database.url });
    teardown.add('stop service', () => service.stop());
    const companies = await service.call<Page<Company>>('GET', '/v1/companies?limit=1');
    const companyId = Number(companies?.body?.data?.[0]?.id);
    if (!Number.isInteger(companyId)) throw new Error(`GET /v1/companies answered ${companies?.status}`);

    const tally = new AnswerTally();
    const prefix = `drill-${crypto.randomBytes(3).toString('hex')}`;
    let stopped = false;
    const done = () => stopped;
    const writers = Array.from({ length: WRITERS }, (_, i) =>
      writeDocuments(service, tally, companyId, `${prefix}-w${i}`, done),
    );
    const chatters = Array.from({ length: CHATTERS }, () => chat(service, tally, companyId, done));
    await sleep(500);
    let killingStopped = false;
    const killing = killBackends(serverUrl, databaseName, () => killingStopped);
    await sleep(faultSeconds * 1000);
    killingStopped = true;
    const killed = await killing;
    const faultEnded = performance.now();
    const recovered = await untilServing(service, '/v1/companies?limit=1', faultEnded);
    stopped = true;
    const acknowledged = (await Promise.all(writers)).flat();
    await Promise.all(chatters);

    const { lost, duplicated } = await lostOrDuplicated(service, database.url, prefix, acknowledged);
    const crashed = service.exited();
    const notes = [
      `${killed} backends terminated over ${faultSeconds} s; ${acknowledged.length} documents acknowledged, ${lost} not readable, ${duplicated} stored twice`,
      ...tally.defects.map((defect) => `defect: ${defect}`),
    ];
    if (crashed)
      notes.push(
        `the service exited: ${service.process
          .output()
          .split('\n')
          .filter((line) => /error/i.test(line))
          .slice(-3)
          .join(' | ')
          .slice(0, 600)}`,
      );
    return {
      ...tally.counts(),
      crashes: crashed ? 1 : 0,
      lostWrites: lost + duplicated,
      recoveryMs: recovered === null ? [] : [recovered],
      notes,
      missedTargets: !crashed && recovered === null ? ['the service did not serve again within 60 s'] : [],
      backendsTerminated: killed,
      writesAcknowledged: acknowledged.length,
    };
  } finally {
    const leftovers = await teardown.runAll();
    if (leftovers.length > 0) process.stderr.write(`connection-kill: teardown incomplete: ${leftovers.join('; ')}\n`);
  }
}

export function run(): Promise<DrillResult> {
  return killConnectionsUnderLoad(serverUrl(), FAULT_SECONDS);
}
