// Next's own cache of rendered pages and cached reads (on disk and in memory), except that nothing is kept from a
// request the service refused: such a page is shown as a 429/503 with its retry time (see lib/request-slot.ts),
// and caching it would serve the refusal for an hour. A refused regeneration leaves the previous page in place.
'use strict';
const FileSystemCache = require('next/dist/server/lib/incremental-cache/file-system-cache').default;

const SLOT = Symbol.for('financial-insights.web.request');

module.exports = class RefusalAwareCache extends FileSystemCache {
  async set(key, data, ctx) {
    if (globalThis[SLOT]?.getStore()?.status) return;
    return super.set(key, data, ctx);
  }
};
