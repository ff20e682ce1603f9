/** Worker-thread entry: parses company-facts files into imported companies off the main thread (see bulk-import.ts). */
import { parentPort } from 'node:worker_threads';
import { importCompanyFacts, UnsupportedFiling, type CompanyFactsFile } from './companyfacts';
import type { ParseAnswer, ParseRequest } from './bulk-import';

parentPort?.on('message', ({ id, bytes }: ParseRequest) => {
  let answer: ParseAnswer;
  try {
    answer = { id, imported: importCompanyFacts(JSON.parse(Buffer.from(bytes).toString('utf8')) as CompanyFactsFile) };
  } catch (error) {
    // A filing the import cannot read is refused with its reason; a file that is not JSON is refused as such.
    const reason =
      error instanceof UnsupportedFiling || error instanceof SyntaxError
        ? (error as Error).message
        : `failed: ${(error as Error).message}`;
    answer = { id, refused: error instanceof SyntaxError ? `not JSON: ${reason}` : reason };
  }
  parentPort?.postMessage(answer);
});
