import { getDocumentProxy } from 'unpdf';
import { AppError, badUserInput } from '../shared/errors';

/**
 * The text of a PDF, page by page, read with PDF.js (through unpdf's build of it, plain JavaScript): a page's text
 * items become lines by their position, so a table row stays one line with its cells apart.
 */

/** What a PDF text item says of itself that lines are rebuilt from. */
interface TextItem {
  str: string;
  /** [a, b, c, d, x, y]: x and y place the item's start on the page. */
  transform: number[];
  width: number;
  height: number;
}

/** Pages beyond this are not read: a document has at most MAX_DOCUMENT_CHARS characters anyway. */
export const MAX_PDF_PAGES = 2_000;

const PDF_SIGNATURE = '%PDF-';

/** Whether the bytes start like a PDF (its signature may follow a few bytes of junk, as readers allow). */
export function looksLikePdf(bytes: Uint8Array): boolean {
  return Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes(PDF_SIGNATURE);
}

/** A gap this many times the font size or wider on a line separates columns: a table's cells. */
const COLUMN_GAP_EMS = 2;

function fontSize(item: TextItem): number {
  return Math.hypot(item.transform[2], item.transform[3]) || item.height || 1;
}

/**
 * Joins a page's text items into lines: a new line where the text moves down; on a line, a gap of COLUMN_GAP_EMS or
 * more (blank or an item of spaces) separates cells with " | ", as an HTML table row is written, so the chunker keeps
 * the row whole and its values apart.
 */
export function itemsToText(items: TextItem[]): string {
  let text = '';
  let lineY: number | null = null;
  let lineEnd = 0;
  for (const item of items) {
    const size = fontSize(item);
    const [x, y] = [item.transform[4], item.transform[5]];
    const blank = item.str.trim() === '';
    if (lineY !== null && Math.abs(y - lineY) >= size * 0.5 && !blank) {
      text += '\n';
      lineY = null;
    }
    if (lineY === null) {
      if (blank) continue;
      lineY = y;
    } else {
      const gap = (blank ? x + item.width : x) - lineEnd;
      if (blank || gap > size * 0.15) text += gap >= size * COLUMN_GAP_EMS ? ' | ' : ' ';
      if (blank) {
        lineEnd = x + item.width;
        continue;
      }
    }
    // PostgreSQL text cannot hold NUL, which some PDF fonts map characters to.
    text += item.str.replaceAll('\u0000', '');
    lineEnd = x + item.width;
  }
  return text.replace(/ ?(?: \| ?)+ ?/g, ' | ');
}

function describe(error: unknown): string {
  const name = (error as { name?: string })?.name ?? '';
  if (name === 'PasswordException') return 'the PDF is encrypted with a password: store a copy without one';
  const message = (error as Error)?.message ?? String(error);
  return `the PDF could not be read (${message.slice(0, 200)})`;
}

/** Each page's text, first page first; BAD_USER_INPUT when the bytes are no readable PDF (corrupt, encrypted). */
export async function pdfPages(bytes: Uint8Array): Promise<string[]> {
  if (!looksLikePdf(bytes))
    throw badUserInput('content is not a PDF: it does not start with %PDF-', { field: 'content_base64' });
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes the buffer over: give it a copy so the caller's bytes stay readable.
    pdf = await getDocumentProxy(new Uint8Array(bytes), { isEvalSupported: false, stopAtErrors: true, verbosity: 0 });
  } catch (error) {
    throw badUserInput(describe(error), { field: 'content_base64' });
  }
  try {
    if (pdf.numPages > MAX_PDF_PAGES) {
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `the PDF has ${pdf.numPages} pages; a document holds at most ${MAX_PDF_PAGES}`,
        { limit: MAX_PDF_PAGES, pages: pdf.numPages },
      );
    }
    const pages: string[] = [];
    for (let number = 1; number <= pdf.numPages; number += 1) {
      const page = await pdf.getPage(number);
      const content = await page.getTextContent();
      pages.push(itemsToText(content.items.filter((item) => 'str' in item) as TextItem[]));
      page.cleanup();
    }
    return pages;
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw badUserInput(describe(error), { field: 'content_base64' });
  } finally {
    await pdf.destroy();
  }
}
