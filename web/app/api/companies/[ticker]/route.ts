import { badTicker, failWith, ok, TICKER } from '../../../../lib/respond';
import { companyByTicker } from '../../../../lib/service';

/** GET /api/companies/{ticker} → the company's profile; 404 NOT_FOUND for an unknown ticker. */
export async function GET(_request: Request, { params }: { params: Promise<{ ticker: string }> }) {
  const { ticker } = await params;
  if (!TICKER.test(ticker)) return badTicker(ticker);
  try {
    return ok(await companyByTicker(ticker));
  } catch (error) {
    return failWith(error);
  }
}
