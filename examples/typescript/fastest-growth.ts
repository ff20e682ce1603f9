/**
 * The five companies of a sector with the fastest revenue growth over their latest fiscal year.
 *   FIS_BASE_URL=http://localhost:8080 FIS_API_KEY=… node fastest-growth.js "Information Technology"
 * (In your own project: import { FinancialInsightsClient } from '@financial-insights/sdk'.)
 */
import { FinancialInsightsClient, NotFoundError } from '../../sdk/typescript/src/index.js';

async function main(sector: string): Promise<void> {
  const client = new FinancialInsightsClient(); // FIS_BASE_URL and FIS_API_KEY from the environment
  const growth = [];
  for await (const company of client.companies.all({ sector })) {
    // A company without a full fiscal year yet has no annual ratios: it is left out, not counted as zero.
    const ratios = await client.statements.ratios(company.id, { period: 'latest-fy' }).catch((error: unknown) => {
      if (error instanceof NotFoundError) return null;
      throw error;
    });
    if (ratios?.revenue_growth != null)
      growth.push({ company, period: ratios.period, revenueGrowth: ratios.revenue_growth });
  }
  growth.sort((a, b) => b.revenueGrowth - a.revenueGrowth);
  console.log(`Fastest revenue growth in ${sector}:`);
  for (const { company, period, revenueGrowth } of growth.slice(0, 5)) {
    console.log(
      `${company.ticker.padEnd(6)} ${(revenueGrowth * 100).toFixed(1).padStart(6)}%  ${period}  ${company.name}`,
    );
  }
}

main(process.argv[2] ?? 'Information Technology').catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
