/** JSON answers of the route handlers, in the service's envelope (`{success, data, meta?}` or `{success:false, error}`). */
import { NextResponse } from 'next/server';
import { asFailure } from './service';

export function ok(data: unknown, meta?: Record<string, unknown>): NextResponse {
  return NextResponse.json(
    { success: true, data, ...(meta ? { meta } : {}) },
    { headers: { 'cache-control': 'no-store' } },
  );
}

export function fail(status: number, code: string, message: string, retryAfterSeconds?: number | null): NextResponse {
  return NextResponse.json(
    { success: false, error: { code, message } },
    {
      status,
      headers: {
        'cache-control': 'no-store',
        ...(retryAfterSeconds ? { 'retry-after': String(retryAfterSeconds) } : {}),
      },
    },
  );
}

/** The service's error as it came (status, code, message, Retry-After), or a 502 when it could not be reached. */
export function failWith(error: unknown): NextResponse {
  const failure = asFailure(error);
  return fail(failure.status, failure.code, failure.message, failure.retryAfterSeconds);
}

export function badTicker(ticker: string): NextResponse {
  return fail(
    400,
    'BAD_USER_INPUT',
    `Invalid ticker "${ticker.slice(0, 20)}": use 1 to 16 letters, digits, dots or dashes`,
  );
}

/**
 * A 303 to a path of this site. The Location stays relative: behind a proxy or on port 0 the server does not know
 * the address the browser used, and the browser resolves a relative one against it.
 */
export function seeOther(pathAndQuery: string): NextResponse {
  return new NextResponse(null, { status: 303, headers: { location: pathAndQuery, 'cache-control': 'no-store' } });
}
