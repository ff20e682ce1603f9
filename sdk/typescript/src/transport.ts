import {
  ApiError,
  ConnectionError,
  errorFor,
  TimeoutError,
  type ErrorCode,
  type ErrorContext,
  type ErrorDetails,
} from './errors.js';

export interface ClientOptions {
  /** Where the service runs, e.g. `https://insights.example.com` (no trailing `/v1`); default FIS_BASE_URL from the environment. */
  baseUrl?: string;
  /** An API key, sent as `X-API-Key`; when the option is absent (and no access token), FIS_API_KEY from the environment. */
  apiKey?: string;
  /** A bearer token (from `auth.token()`), sent as `Authorization: Bearer …`; used instead of the key when both are set. */
  accessToken?: string;
  /** Milliseconds before a request is given up with a TimeoutError (for a stream: until its first byte). Default 30,000. */
  timeoutMs?: number;
  /**
   * How many times a refused call is tried again: a 429 or 503 always (the service did not run it), a 502, 504 or a
   * connection failure only for calls that are safe to repeat (reads, revocation, search). Default 2.
   */
  maxRetries?: number;
  /** The longest wait before a retry, in milliseconds: a longer Retry-After is not waited for. Default 30,000. */
  maxRetryDelayMs?: number;
  /** Extra headers for every request. */
  headers?: Record<string, string>;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Credentials mode of browser requests (e.g. `include` to send the session cookie to another origin). */
  credentials?: 'omit' | 'same-origin' | 'include';
}

export interface RequestOptions {
  /** Cancels the request (and a stream being read). */
  signal?: AbortSignal;
  /** This request's timeout, instead of the client's. */
  timeoutMs?: number;
}

type Query = Record<string, string | number | boolean | undefined | null>;

interface Call extends RequestOptions {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  /** Safe to send twice (default: every method but POST; a PATCH sets values, so sending it twice sets them once). */
  idempotent?: boolean;
  path: string;
  query?: Query;
  body?: unknown;
  /** Ask for an event stream. */
  stream?: boolean;
}

/** The service's code for the status of an OAuth error (RFC 6749 §5.2 names the error, not a code); the OAuth name stays in details. */
const OAUTH_STATUS_CODES: Record<number, ErrorCode> = {
  400: 'BAD_USER_INPUT',
  401: 'UNAUTHENTICATED',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
  503: 'SERVICE_UNAVAILABLE',
};

/** What a failed answer may carry: the service's envelope, an OAuth error, or GraphQL's errors. */
interface FailureBody {
  error?: string | { code?: string; message: string; details?: ErrorDetails };
  error_description?: string;
  errors?: Array<{ message: string; extensions?: { code?: string } }>;
}

function oauthError(status: number, body: { error: string; error_description?: string }) {
  return {
    code: OAUTH_STATUS_CODES[status] ?? 'INTERNAL_SERVER_ERROR',
    message: body.error_description ?? body.error,
    details: { oauth_error: body.error },
  };
}

const DEFAULTS = { timeoutMs: 30_000, maxRetries: 2, maxRetryDelayMs: 30_000 };

/** Statuses worth another try: refused before running (429, 503), or a gateway that failed (502, 504). */
const REFUSED_BEFORE_RUNNING = new Set([429, 503]);
const GATEWAY_FAILURES = new Set([502, 504]);

/** A variable of the environment, where there is one (Node; not a browser). */
function environment(name: string): string | undefined {
  const value = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name]?.trim();
  return value || undefined;
}

/** The wait before try `attempt + 1`: what Retry-After says, or an exponential backoff with full jitter. */
function retryDelayMs(attempt: number, retryAfter: number | undefined, maxRetryDelayMs: number): number {
  // A little jitter on Retry-After too, so clients told the same second do not all come back at once.
  if (retryAfter !== undefined) return retryAfter * 1000 + Math.random() * 250;
  return Math.random() * Math.min(500 * 2 ** attempt, maxRetryDelayMs);
}

/** Seconds from a Retry-After header: delay-seconds or an HTTP date. */
export function retryAfterSeconds(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - now) / 1000));
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * The HTTP side of the client: credentials, timeouts and cancellation, retries of 429/503 that honour Retry-After
 * up to a cap, and the service's error envelope turned into typed errors.
 */
export class Transport {
  readonly options: Required<Pick<ClientOptions, 'timeoutMs' | 'maxRetries' | 'maxRetryDelayMs'>> & ClientOptions;

  constructor(options: ClientOptions = {}) {
    const baseUrl = options.baseUrl ?? environment('FIS_BASE_URL');
    if (!baseUrl)
      throw new TypeError('baseUrl is required (or FIS_BASE_URL in the environment), e.g. http://localhost:8080');
    // A caller that names apiKey (even as undefined) or gives a token decides; only an absent one comes from the environment.
    const apiKey = 'apiKey' in options || options.accessToken ? options.apiKey : environment('FIS_API_KEY');
    this.options = { ...DEFAULTS, ...options, apiKey, baseUrl: baseUrl.replace(/\/+$/, '') };
  }

  /** The request id and headers of a response, for its errors. */
  contextOf(response: Response): ErrorContext {
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name] = value;
    });
    return { requestId: response.headers.get('x-request-id') ?? undefined, headers };
  }

  /** A JSON request: the `{success, data, meta}` body of a success, or a typed error. */
  async json<T>(call: Call): Promise<{ data: T; meta?: unknown; status: number }> {
    const response = await this.send(call);
    try {
      const body = (await response.json()) as { success?: boolean; data?: T; meta?: unknown };
      if (body?.success !== true)
        throw new ApiError(`Unexpected answer from ${call.path}`, 'INVALID_RESPONSE', response.status);
      return { data: body.data as T, meta: body.meta, status: response.status };
    } catch (error) {
      if (error instanceof ApiError) throw error;
      throw new ApiError(
        `${call.method} ${call.path} answered ${response.status} with a body that is not JSON`,
        'INVALID_RESPONSE',
        response.status,
      );
    }
  }

  /** A JSON request to an endpoint that answers without the envelope (the OAuth token endpoint). */
  async plain<T>(call: Call): Promise<T> {
    const response = await this.send(call);
    try {
      return (await response.json()) as T;
    } catch {
      throw new ApiError(
        `${call.method} ${call.path} answered ${response.status} with a body that is not JSON`,
        'INVALID_RESPONSE',
        response.status,
      );
    }
  }

  /** Sends a request and returns a successful response (any failure is thrown as a typed error). */
  async send(call: Call): Promise<Response> {
    const { maxRetries, maxRetryDelayMs } = this.options;
    const idempotent = call.idempotent ?? call.method !== 'POST';
    for (let attempt = 0; ; attempt += 1) {
      let error: ApiError;
      try {
        const response = await this.attempt(call);
        if (response.ok) return response;
        error = await this.errorOf(response, call);
      } catch (failure) {
        if (!(failure instanceof ConnectionError)) throw failure;
        error = failure;
      }
      const retryable =
        REFUSED_BEFORE_RUNNING.has(error.status) ||
        (idempotent && (GATEWAY_FAILURES.has(error.status) || error instanceof ConnectionError));
      const wait = retryDelayMs(attempt, error.retryAfterSeconds, maxRetryDelayMs);
      if (!retryable || attempt >= maxRetries || wait > maxRetryDelayMs + 250) throw error;
      await sleep(wait, call.signal);
    }
  }

  private async attempt(call: Call): Promise<Response> {
    const url = new URL(this.options.baseUrl + call.path);
    for (const [key, value] of Object.entries(call.query ?? {}))
      if (value !== undefined && value !== null) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = {
      accept: call.stream ? 'text/event-stream' : 'application/json',
      ...this.options.headers,
    };
    if (this.options.accessToken) headers.authorization = `Bearer ${this.options.accessToken}`;
    else if (this.options.apiKey) headers['x-api-key'] = this.options.apiKey;
    if (call.body !== undefined) headers['content-type'] = 'application/json';
    // One signal for the caller's cancellation and the timeout; the timeout covers the wait for the response
    // (a stream's headers), not the reading of a long stream.
    const controller = new AbortController();
    const timeoutMs = call.timeoutMs ?? this.options.timeoutMs;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new TimeoutError(`${call.method} ${call.path} took longer than ${timeoutMs} ms`, 'TIMEOUT', 0));
    }, timeoutMs);
    const onAbort = () => controller.abort(call.signal!.reason);
    if (call.signal?.aborted) onAbort();
    call.signal?.addEventListener('abort', onAbort, { once: true });
    const fetcher = this.options.fetch ?? globalThis.fetch;
    try {
      const response = await fetcher(url, {
        method: call.method,
        headers,
        body: call.body === undefined ? undefined : JSON.stringify(call.body),
        signal: controller.signal,
        ...(this.options.credentials ? { credentials: this.options.credentials } : {}),
      });
      if (!call.stream) {
        // Read the body under the timeout too: a JSON answer is only complete when its last byte is in.
        const text = await response.text();
        return new Response(text, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      }
      return response;
    } catch (error) {
      if (timedOut) throw controller.signal.reason;
      if (call.signal?.aborted) throw call.signal.reason;
      throw new ConnectionError(
        `${call.method} ${url.origin}${call.path} failed: ${(error as Error).message}`,
        'CONNECTION_FAILED',
        0,
      );
    } finally {
      clearTimeout(timer);
      // A stream still being read stays cancellable by the caller's signal.
      if (!call.stream) call.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The typed error of a failed response: from the service's envelope (or, at /graphql/stream, GraphQL's errors). */
  async errorOf(response: Response, call: Pick<Call, 'method' | 'path'>): Promise<ApiError> {
    const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
    const context = this.contextOf(response);
    const text = await response.text().catch(() => '');
    let body: FailureBody | null;
    try {
      body = JSON.parse(text);
    } catch {
      return new ApiError(
        `${call.method} ${call.path} answered ${response.status}: ${text.slice(0, 200)}`,
        'INVALID_RESPONSE',
        response.status,
        undefined,
        retryAfter,
        context,
      );
    }
    const error: { code?: string; message?: string; details?: ErrorDetails } =
      typeof body?.error === 'string'
        ? oauthError(response.status, { error: body.error, error_description: body.error_description })
        : (body?.error ?? { code: body?.errors?.[0]?.extensions?.code, message: body?.errors?.[0]?.message });
    if (!error?.code)
      return new ApiError(
        `${call.method} ${call.path} answered ${response.status}`,
        'INVALID_RESPONSE',
        response.status,
        (body ?? undefined) as ErrorDetails | undefined,
        retryAfter,
        context,
      );
    return errorFor(
      error.code,
      error.message ?? `${call.method} ${call.path} answered ${response.status}`,
      response.status,
      error.details,
      retryAfter,
      context,
    );
  }
}
