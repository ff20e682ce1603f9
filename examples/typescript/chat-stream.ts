/**
 * A chat answer printed as it streams, then its sources.
 *   FIS_BASE_URL=http://localhost:8080 FIS_API_KEY=… node chat-stream.js "How did Apple's revenue change?" AAPL
 * (In your own project: import { FinancialInsightsClient } from '@financial-insights/sdk'.)
 */
import { FinancialInsightsClient } from '../../sdk/typescript/src/index.js';

async function main(question: string, ticker?: string): Promise<void> {
  const client = new FinancialInsightsClient(); // FIS_BASE_URL and FIS_API_KEY from the environment
  const companyIds = ticker ? [(await client.companies.byTicker(ticker)).id] : undefined;
  for await (const event of client.ai.chat({
    messages: [{ role: 'user', content: question }],
    company_ids: companyIds,
  })) {
    if (event.event === 'token') process.stdout.write(event.data.text);
    if (event.event === 'done') {
      const sources = new Set(event.data.citations.map((c) => `${c.ticker} ${c.period ?? c.title ?? ''}`.trim()));
      process.stdout.write(
        `\n\nSources: ${[...sources].join('; ') || 'none'}\nConversation: ${event.data.conversation_id}\n`,
      );
    }
  }
}

main(process.argv[2] ?? 'How did revenue change last year?', process.argv[3]).catch((error: unknown) => {
  console.error(error instanceof Error ? `${error.name}: ${error.message}` : error);
  process.exit(1);
});
