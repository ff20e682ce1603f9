/**
 * `npm run ingest -- <files or folders> --company <ticker> [--type 10-K] [--period FY2024] [--api <service url> [--key <admin key>]]`
 *
 * Stores .txt, .md, .html and .pdf files as documents of one company. By default it writes to the service's database
 * (DATA_DIR or DATABASE_URL; an embedded database must not be open in a running service); with --api it sends each
 * file to a running service's POST /v1/documents instead, with an admin API key (--key, or FIS_API_KEY).
 */
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/config';
import { createLogger } from '../shared/logger';
import { migrate, openDatabase, withStartupLock } from '../db/database';
import { maintainEmbeddedTables } from '../db/maintenance';
import { findCompany } from '../companies/company.service';
import { prepareSearch } from '../search/search-backend';
import { ingestDocument } from '../search/ingestion.service';
import type { DocumentFormat } from '../search/search.types';

const FORMATS: Record<string, DocumentFormat | 'PDF'> = {
  '.txt': 'TEXT',
  '.md': 'MARKDOWN',
  '.markdown': 'MARKDOWN',
  '.html': 'HTML',
  '.htm': 'HTML',
  '.pdf': 'PDF',
};

/** A file's content as the document input takes it: text with its format, or a PDF's bytes in base64. */
type FileContent =
  { content: string; format: DocumentFormat } | { contentBase64: string; contentType: 'application/pdf' };

function readContent(file: string): FileContent {
  const format = FORMATS[path.extname(file).toLowerCase()];
  if (format === 'PDF')
    return { contentBase64: fs.readFileSync(file).toString('base64'), contentType: 'application/pdf' };
  return { content: fs.readFileSync(file, 'utf8'), format };
}

/** The content in the REST body's names. */
function restContent(content: FileContent): Record<string, string> {
  return 'content' in content
    ? { content: content.content, format: content.format.toLowerCase() }
    : { content_base64: content.contentBase64, content_type: content.contentType };
}

interface Options {
  paths: string[];
  company: string;
  docType: string;
  period: string | null;
  api: string | null;
  key: string | null;
}

function readOptions(argv: string[]): Options {
  const options: Options = {
    paths: [],
    company: '',
    docType: 'other',
    period: null,
    api: null,
    key: process.env.FIS_API_KEY?.trim() || null,
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(`${arg} needs a value`);
      return argv[++i];
    };
    if (arg === '--company') options.company = value();
    else if (arg === '--type') options.docType = value();
    else if (arg === '--period') options.period = value();
    else if (arg === '--api') options.api = value().replace(/\/$/, '');
    else if (arg === '--key') options.key = value();
    else if (arg.startsWith('--')) throw new Error(`unknown option ${arg}`);
    else options.paths.push(arg);
  }
  if (options.paths.length === 0 || !options.company) {
    throw new Error(
      'usage: npm run ingest -- <files or folders> --company <ticker> [--type 10-K] [--period FY2024] [--api http://localhost:8080 --key <admin key>]',
    );
  }
  return options;
}

/** The supported files under the given paths, in a stable order. */
function collectFiles(paths: string[]): string[] {
  const files: string[] = [];
  const visit = (target: string) => {
    const stat = fs.statSync(target);
    if (stat.isDirectory()) for (const entry of fs.readdirSync(target).sort()) visit(path.join(target, entry));
    else if (FORMATS[path.extname(target).toLowerCase()]) files.push(target);
  };
  for (const target of paths) {
    if (!fs.existsSync(target)) throw new Error(`no such file or folder: ${target}`);
    visit(target);
  }
  return files;
}

function titleOf(file: string): string {
  return path.basename(file, path.extname(file)).replace(/[_-]+/g, ' ').trim();
}

/** The service's REST envelope. */
type RestAnswer<T> = { success: true; data: T } | { success: false; error: { code: string; message: string } };

type Ingest = (file: string, content: FileContent) => Promise<{ id: number; created: boolean; chunks: number }>;

async function viaApi(options: Options): Promise<{ ingest: Ingest; close(): Promise<void> }> {
  // Storing documents needs an admin key; reads are public unless the service says otherwise.
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    ...(options.key ? { 'x-api-key': options.key } : {}),
  };
  const lookup = await fetch(`${options.api}/graphql`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      query: 'query($t: String) { company(ticker: $t) { id } }',
      variables: { t: options.company },
    }),
  }).then((response) => response.json() as Promise<{ data?: { company?: { id: number } | null } | null }>);
  const companyId = lookup.data?.company?.id;
  if (!companyId) throw new Error(`no company with ticker ${options.company} at ${options.api}`);
  return {
    ingest: async (file, content) => {
      const response = await fetch(`${options.api}/v1/documents`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          company_id: companyId,
          title: titleOf(file),
          doc_type: options.docType,
          period: options.period ?? undefined,
          ...restContent(content),
        }),
      });
      const body = (await response.json()) as RestAnswer<{
        document: { id: number; chunk_count: number };
        created: boolean;
      }>;
      if (!body.success) throw new Error(`${response.status} ${body.error.code}: ${body.error.message}`);
      return { id: body.data.document.id, created: body.data.created, chunks: body.data.document.chunk_count };
    },
    close: async () => undefined,
  };
}

async function viaDatabase(options: Options): Promise<{ ingest: Ingest; close(): Promise<void> }> {
  const config = loadConfig();
  const database = await openDatabase(config, createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel));
  try {
    await withStartupLock(database, (runner) => migrate(database, runner));
    const company = await findCompany(database.dataSource, null, options.company);
    if (!company) throw new Error(`no company with ticker ${options.company}`);
    const backend = await prepareSearch(database, config, createLogger('warn'), { backgroundRefit: false });
    return {
      ingest: async (file, content) => {
        const { document, created } = await ingestDocument(backend, {
          companyId: company.id,
          title: titleOf(file),
          docType: options.docType,
          period: options.period,
          format: 'TEXT',
          ...content,
        });
        return { id: document.id, created, chunks: document.chunkCount };
      },
      close: async () => {
        // Refit the built-in search model once for everything just stored (if the corpus grew enough).
        if (await backend.models.refitIfStale())
          process.stdout.write('Refitted the built-in search model on the grown corpus\n');
        await backend.models.close();
        await maintainEmbeddedTables(database, createLogger('warn'));
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function main(): Promise<void> {
  const options = readOptions(process.argv.slice(2));
  const files = collectFiles(options.paths);
  if (files.length === 0) throw new Error('no .txt, .md, .html or .pdf files found');
  const target = options.api ? await viaApi(options) : await viaDatabase(options);
  const totals = { created: 0, existing: 0, failed: 0, chunks: 0 };
  try {
    for (const [index, file] of files.entries()) {
      const prefix = `[${index + 1}/${files.length}] ${file}`;
      try {
        const result = await target.ingest(file, readContent(file));
        if (result.created) {
          totals.created += 1;
          totals.chunks += result.chunks;
        } else totals.existing += 1;
        process.stdout.write(
          `${prefix}: ${result.created ? `stored as document ${result.id}, ${result.chunks} chunks` : `already stored as document ${result.id}`}\n`,
        );
      } catch (error) {
        totals.failed += 1;
        process.stdout.write(`${prefix}: failed: ${(error as Error).message}\n`);
      }
    }
  } finally {
    await target.close();
  }
  process.stdout.write(
    `Done: ${totals.created} stored (${totals.chunks} chunks), ${totals.existing} already present, ${totals.failed} failed\n`,
  );
  if (totals.failed > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`ingest failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
