/** `npm run sdk:generate`: writes the OpenAPI document and the SDKs' generated types (see generated-files.ts). */
import fs from 'node:fs';
import path from 'node:path';
import { generatedFiles, REPO_ROOT } from './generated-files';

async function main(): Promise<void> {
  for (const [file, content] of Object.entries(await generatedFiles())) {
    fs.mkdirSync(path.dirname(path.join(REPO_ROOT, file)), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, file), content);
    process.stdout.write(`wrote ${file}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
