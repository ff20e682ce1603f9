import { badTicker, failWith, ok } from '../../../../lib/respond';
import { TICKER } from '../../../../lib/ticker';
import { companyByTicker } from '../../../../lib/service';
import { visitorAddress } from '../../../../lib/visitor';

/** GET /api/companies/{ticker} → the company's profile; 404 NOT_FOUND for an unknown ticker. */
export async function GET(_request: Request, { params }: { params: Promise<{ ticker: string }> }) {
  const { ticker } = await params;
  if (!TICKER.test(ticker)) return badTicker(ticker);
  try {
    return ok(await companyByTicker(ticker, await visitorAddress()));
  } catch (error) {
    return failWith(error);
  }
}
