import type { DataSource } from 'typeorm';
import { AppError } from '../shared/errors';
import type { Document } from './document.entity';
import { companyNaming, documentPassages, findDocument } from './documents.repository';
import type { Passage } from './document-reading.types';

/** A stored document by id; NOT_FOUND when there is none (a link to it is stale or mistyped). */
export async function readDocument(dataSource: DataSource, id: number): Promise<Document> {
  const document = await findDocument(dataSource.manager, id);
  if (!document) throw new AppError('NOT_FOUND', `No document with id ${id}`);
  return document;
}

export async function tickerOfDocument(dataSource: DataSource, document: Document): Promise<string> {
  const company = await companyNaming(dataSource.manager, document.companyId);
  return company?.ticker ?? '';
}

export function passagesOfDocument(dataSource: DataSource, document: Document): Promise<Passage[]> {
  return documentPassages(dataSource.manager, document.id);
}
