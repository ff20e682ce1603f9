import type { DataSource } from 'typeorm';
import { AppError } from '../shared/errors';
import type { Document } from './document.entity';
import { companyNaming, documentPassages, findDocumentToRead, type DocumentToRead } from './documents.repository';
import type { Passage } from './document-reading.types';

/** A stored document with its ticker and passages, in one query; NOT_FOUND when there is none (a stale or mistyped link). */
export async function readDocument(dataSource: DataSource, id: number): Promise<DocumentToRead> {
  const document = await findDocumentToRead(dataSource.manager, id);
  if (!document) throw new AppError('NOT_FOUND', `No document with id ${id}`);
  return document;
}

/**
 * The ticker and passages of a document that came without them (the one `ingestDocument` answers): one query each,
 * which is no N+1 as a document is never in a list.
 */
export async function tickerOfDocument(dataSource: DataSource, document: Document | DocumentToRead): Promise<string> {
  if ('ticker' in document) return document.ticker;
  const company = await companyNaming(dataSource.manager, document.companyId);
  if (!company) throw new AppError('NOT_FOUND', `No company with id ${document.companyId}`);
  return company.ticker;
}

export function passagesOfDocument(dataSource: DataSource, document: Document | DocumentToRead): Promise<Passage[]> {
  return 'passages' in document
    ? Promise.resolve(document.passages)
    : documentPassages(dataSource.manager, document.id);
}
