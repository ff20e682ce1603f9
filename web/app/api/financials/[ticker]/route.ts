import type { NextRequest } from 'next/server';
import { badTicker, fail, failWith, ok } from '../../../../lib/respond';
import { TICKER } from '../../../../lib/ticker';
import { companyByTicker, periods, statement } from '../../../../lib/service';
import { visitorAddress } from '../../../../lib/visitor';

const PERIOD = /^(Q[1-4]-\d{4}|FY\d{4}|latest|latest-fy|ttm)$/i;

/**
 * GET /api/financials/{ticker}?period= → {ticker, currency, income_statement, history}: the income statement of the
 * period (the newest quarter by default) and the last eight quarters' key figures, oldest first, for charts.
 */
export async function GET(request: NextRequest, { params }: { params: Promise<{ ticker: string }> }) {
  const { ticker } = await params;
  if (!TICKER.test(ticker)) return badTicker(ticker);
  const period = request.nextUrl.searchParams.get('period') ?? 'latest';
  if (!PERIOD.test(period))
    return fail(
      400,
      'BAD_USER_INPUT',
      `Invalid period "${period.slice(0, 20)}": use Q<1-4>-<yyyy>, FY<yyyy>, latest, latest-fy or ttm`,
    );
  try {
    const visitor = await visitorAddress();
    const company = await companyByTicker(ticker, visitor);
    const [income, quarters] = await Promise.all([
      statement(company.id, 'income', period, visitor),
      periods(company.id, 'quarter', visitor),
    ]);
    if (!income) return fail(404, 'NOT_FOUND', `${company.ticker} has no income statement for ${period}`);
    const history = await Promise.all(
      quarters
        .slice(0, 8)
        .reverse()
        .map(async ({ period: quarter }) => {
          const [q, ratios, cash] = await Promise.all([
            statement(company.id, 'income', quarter, visitor),
            statement(company.id, 'ratios', quarter, visitor),
            statement(company.id, 'cashFlow', quarter, visitor),
          ]);
          return {
            period: quarter,
            revenue: q?.revenue ?? null,
            netIncome: q?.net_income ?? null,
            grossMargin: ratios?.gross_margin ?? null,
            operatingMargin: ratios?.operating_margin ?? null,
            netMargin: ratios?.net_margin ?? null,
            operatingCashFlow: cash?.operating_cash_flow ?? null,
            freeCashFlow: cash?.free_cash_flow ?? null,
          };
        }),
    );
    return ok({ ticker: company.ticker, currency: company.currency, income_statement: income, history });
  } catch (error) {
    return failWith(error);
  }
}
