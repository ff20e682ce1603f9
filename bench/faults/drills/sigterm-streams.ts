/**
 * SIGTERM with open chat streams: the service is stopped while chats stream (a provider that keeps writing). Every
 * stream must end by telling its client (a `done` event, or an `error` event SHUTTING_DOWN at the shutdown deadline),
 * never be cut without a word; the process must exit 0 within the deadline plus a moment.
 */
import { readSseEvents } from '../../../test/helpers/sse-events';
import { startFakeOpenAI } from '../../../test/helpers/fake-openai';
import { AnswerTally, type DrillResult } from '../drill';
import { freshEmbeddedDatabase, withTeardown, startDrillService } from '../service';

export const name = 'sigterm-streams';

const STREAMS = 6;
const SHUTDOWN_TIMEOUT_MS = 5_000;
/** The stream farewell and the database's close, past the deadline. */
const EXIT_SLACK_MS = 5_000;

type Ending = 'done' | 'told' | 'cut';

export async function run(): Promise<DrillResult> {
  const tally = new AnswerTally();
  const missed: string[] = [];
  const notes: string[] = [];
  let crashes = 0;
  await withTeardown(notes, async (teardown) => {
    const provider = await startFakeOpenAI();
    teardown.add('fake provider', () => provider.close());
    provider.chatBehaviour = 'slow';
    const service = await startDrillService({
      ...freshEmbeddedDatabase(teardown),
      OPENAI_API_KEY: 'drill-key',
      OPENAI_BASE_URL: provider.url,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    teardown.add('service', () => service.stop());

    // Each stream resolves once its first event arrived (it is open), and ends with how it ended.
    const opened: Array<Promise<void>> = [];
    const endings = Array.from({ length: STREAMS }, (_, i) => {
      let markOpen: () => void = () => undefined;
      opened.push(new Promise<void>((resolve) => (markOpen = resolve)));
      return (async (): Promise<Ending> => {
        try {
          const response = await fetch(`${service.url}/v1/ai/chat`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', accept: 'text/event-stream', 'x-api-key': service.key },
            body: JSON.stringify({
              messages: [{ role: 'user', content: `What was revenue in FY2024? (${i})` }],
              company_ids: [1],
            }),
          });
          tally.record('POST /v1/ai/chat', response);
          let last: Ending = 'cut';
          for await (const event of readSseEvents(response.body!)) {
            markOpen();
            if (event.event === 'done') last = 'done';
            else if (event.event === 'error')
              last = JSON.stringify(event.data ?? '').includes('SHUTTING_DOWN') ? 'told' : 'cut';
          }
          return last;
        } catch {
          markOpen();
          return 'cut';
        } finally {
          markOpen();
        }
      })();
    });
    await Promise.all(opened);
    const signalled = performance.now();
    service.process.child.kill('SIGTERM');
    const code = await service.process.exited;
    const exitMs = performance.now() - signalled;
    const ended = await Promise.all(endings);
    const count = (ending: Ending) => ended.filter((e) => e === ending).length;
    notes.push(
      `SIGTERM with ${STREAMS} open chat streams: ${count('done')} finished, ${count('told')} told SHUTTING_DOWN, ${count('cut')} cut; exit code ${code} after ${(exitMs / 1000).toFixed(1)} s (SHUTDOWN_TIMEOUT_MS ${SHUTDOWN_TIMEOUT_MS})`,
    );
    if (count('cut') > 0) missed.push(`${count('cut')} stream(s) cut without a final event`);
    if (code !== 0) {
      crashes = 1;
      missed.push(`exit code ${code}`);
    }
    if (exitMs > SHUTDOWN_TIMEOUT_MS + EXIT_SLACK_MS) missed.push(`exit took ${(exitMs / 1000).toFixed(1)} s`);
  });
  return { ...tally.counts(), crashes, lostWrites: 0, recoveryMs: [], notes, missedTargets: missed };
}
