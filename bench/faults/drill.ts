/**
 * What a fault drill is and what it reports. A drill lives in `bench/faults/drills/<name>.ts` and exports `name`
 * and `run`; `bench/faults/run.ts` finds every module there, runs the ones asked for and prints one table row each.
 *
 *   export const name = 'connection-kill';
 *   export async function run(): Promise<DrillResult> {
 *     const tally = new AnswerTally();
 *     // … start a service, inject the fault, tally.record(response) for every answer …
 *     return { ...tally.counts(), crashes: 0, lostWrites: 0, recoveryMs: [] };
 *   }
 */

export interface DrillResult {
  /** Requests the drill sent to the service. */
  requests: number;
  /** Answers 5xx other than a 503 with Retry-After (500s above all): each one is a defect. */
  serverErrors: number;
  /** Answers 503 with Retry-After: the documented answer while a dependency is away, not a defect. */
  unavailable: number;
  /** Service processes that died although they should have lived. */
  crashes: number;
  /** Acknowledged writes that could not be read back afterwards, and writes stored twice. */
  lostWrites: number;
  /** Milliseconds from the end of each fault until the service served again. */
  recoveryMs: number[];
  /** Drill-specific figures worth printing under the table, e.g. "company read p99 120 ms". */
  notes?: string[];
  /** Targets the drill measured and missed, besides 0 server errors, crashes and lost writes. */
  missedTargets?: string[];
}

export interface Drill {
  name: string;
  run(): Promise<DrillResult>;
}

/** Counts the answers a drill receives, split into what is a defect (5xx but 503 + Retry-After) and what is not. */
export class AnswerTally {
  private requests = 0;
  private serverErrors = 0;
  private unavailable = 0;
  /** The first few defects, kept to say what went wrong. */
  readonly defects: string[] = [];

  /** Records one answer; `label` names the request in the list of defects. */
  record(
    label: string,
    response: { status: number; headers: { get(name: string): string | null } },
    body?: unknown,
  ): void {
    this.requests++;
    if (response.status < 500) return;
    if (response.status === 503 && response.headers.get('retry-after') !== null) {
      this.unavailable++;
      return;
    }
    this.serverErrors++;
    if (this.defects.length < 5)
      this.defects.push(`${label} → ${response.status} ${JSON.stringify(body ?? null).slice(0, 200)}`);
  }

  /** Records a request that got no answer at all (connection refused or reset). */
  recordNoAnswer(): void {
    this.requests++;
  }

  counts(): Pick<DrillResult, 'requests' | 'serverErrors' | 'unavailable'> {
    return { requests: this.requests, serverErrors: this.serverErrors, unavailable: this.unavailable };
  }
}

/** The targets every drill shares, plus its own: an empty list means the drill passed. */
export function missedTargets(result: DrillResult): string[] {
  const missed: string[] = [];
  if (result.serverErrors > 0) missed.push(`${result.serverErrors} server error(s)`);
  if (result.crashes > 0) missed.push(`${result.crashes} crash(es)`);
  if (result.lostWrites > 0) missed.push(`${result.lostWrites} lost or duplicated write(s)`);
  return [...missed, ...(result.missedTargets ?? [])];
}
