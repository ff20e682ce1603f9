import type { NextRequest } from 'next/server';
import { isView, loadCompanyView, VIEWS } from '../../../../../lib/company-view';
import { statementsCsv } from '../../../../../lib/csv';
import { badTicker, fail, failWith } from '../../../../../lib/respond';
import { TICKER } from '../../../../../lib/ticker';
import { visitorAddress } from '../../../../../lib/visitor';

/** GET /api/financials/{ticker}/csv?view=annual|quarterly|ttm → the page's statements as a CSV download. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ ticker: string }> }) {
  const { ticker } = await params;
  if (!TICKER.test(ticker)) return badTicker(ticker);
  const view = request.nextUrl.searchParams.get('view') ?? 'annual';
  if (!isView(view)) return fail(400, 'BAD_USER_INPUT', `view must be one of ${Object.keys(VIEWS).join(', ')}`);
  try {
    const data = await loadCompanyView(ticker, view, await visitorAddress());
    return new Response(statementsCsv(data.columns), {
      headers: {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${data.company.ticker}-${view}.csv"`,
        'cache-control': 'no-store',
      },
    });
  } catch (error) {
    return failWith(error);
  }
}
