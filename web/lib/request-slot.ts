/**
 * Each request's slot, kept by server.js (an AsyncLocalStorage on globalThis, outside Next's bundles): a page sets
 * the status its answer must carry (401/403 for an access page, 429/503 for a refusal, with Retry-After), and
 * server.js writes it, since a server component cannot set its own status. Empty outside server.js (e.g. next dev).
 */
export interface RequestSlot {
  status?: number;
  retryAfterSeconds?: number | null;
}

const SLOT = Symbol.for('financial-insights.web.request');

export function requestSlot(): RequestSlot | undefined {
  return (globalThis as Record<symbol, { getStore(): RequestSlot | undefined } | undefined>)[SLOT]?.getStore();
}

export function answerWith(status: number, retryAfterSeconds: number | null = null): void {
  const slot = requestSlot();
  if (slot) Object.assign(slot, { status, retryAfterSeconds });
}
