import type { NextRequest } from 'next/server';
import { fail, failWith, ok } from '../../../lib/respond';
import { listCompanies } from '../../../lib/service';
import { visitorAddress } from '../../../lib/visitor';

/** GET /api/companies?sector=&limit=&offset= → [{ticker, name, sector}] with {total, limit, offset}. */
export async function GET(request: NextRequest) {
  const params = request.nextUrl.searchParams;
  const limit = Number(params.get('limit') ?? 20);
  const offset = Number(params.get('offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100)
    return fail(400, 'BAD_USER_INPUT', 'limit must be an integer from 1 to 100');
  if (!Number.isInteger(offset) || offset < 0)
    return fail(400, 'BAD_USER_INPUT', 'offset must be an integer of 0 or more');
  try {
    const { items, total } = await listCompanies(
      { sector: params.get('sector'), limit, offset },
      await visitorAddress(),
    );
    return ok(
      items.map(({ ticker, name, sector }) => ({ ticker, name, sector })),
      { total, limit, offset },
    );
  } catch (error) {
    return failWith(error);
  }
}
