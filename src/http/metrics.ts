import type { ServerResponse } from 'node:http';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Prometheus metrics (GET /metrics): requests by route and status with their latencies, the database pool, and AI
 * provider calls by outcome. One registry per app, so several apps in one process (tests) do not mix their counts.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly routes = new WeakMap<ServerResponse, string>();

  readonly requests = new Counter({
    name: 'fis_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });

  readonly latency = new Histogram({
    name: 'fis_http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  readonly aiCalls = new Counter({
    name: 'fis_ai_generations_total',
    help: 'AI answers by writer and outcome (ok, upstream_error, timeout, cancelled)',
    labelNames: ['writer', 'outcome'] as const,
    registers: [this.registry],
  });

  constructor(pool: () => { total: number; idle: number; waiting: number } | null) {
    collectDefaultMetrics({ register: this.registry, prefix: 'fis_' });
    new Gauge({
      name: 'fis_db_pool_connections',
      help: 'Database pool connections by state',
      labelNames: ['state'] as const,
      registers: [this.registry],
      collect() {
        const figures = pool();
        if (!figures) return;
        this.set({ state: 'total' }, figures.total);
        this.set({ state: 'idle' }, figures.idle);
        this.set({ state: 'waiting' }, figures.waiting);
      },
    });
  }

  /** The route pattern a response is counted under (e.g. /v1/companies/:id); set by whoever matched the route. */
  label(res: ServerResponse, route: string): void {
    this.routes.set(res, route);
  }

  observe(method: string, res: ServerResponse, fallbackRoute: string, seconds: number): void {
    const route = this.routes.get(res) ?? fallbackRoute;
    this.requests.inc({ method, route, status: String(res.statusCode) });
    this.latency.observe({ method, route }, seconds);
  }
}
