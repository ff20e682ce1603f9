// autocannon ships no type declarations; this covers only the part of its API the benchmark uses.
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      /** Seconds. */
      duration?: number;
      method?: 'GET' | 'POST';
      headers?: Record<string, string>;
      body?: string;
      /** Fire the requests from this many worker threads instead of the calling thread. */
      workers?: number;
    }

    /** Summary of an HDR histogram; the p-fields are percentiles (p50 is the median). */
    interface Histogram {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p90: number;
      p99: number;
    }

    interface Result {
      /** Completed requests per second, sampled once a second. */
      requests: Histogram;
      /** Response time in milliseconds. */
      latency: Histogram;
      /** Seconds the run actually took. */
      duration: number;
      /** Connection errors, timeouts included. */
      errors: number;
      timeouts: number;
      /** Responses whose status was not 2xx. */
      non2xx: number;
      statusCodeStats: Record<string, { count: number }>;
    }

    interface Instance extends EventEmitter {
      stop(): void;
    }
  }

  function autocannon(
    options: autocannon.Options,
    callback: (error: Error | null, result: autocannon.Result) => void,
  ): autocannon.Instance;

  export = autocannon;
}
