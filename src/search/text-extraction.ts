import { convert } from 'html-to-text';
import { AppError } from '../shared/errors';
import type { DocumentFormat } from './search.types';

/** Separates pages in a document's text, as `pdftotext` writes them; a page's chunks keep its number. */
export const PAGE_BREAK = '\f';

/**
 * Plain text out of a document: HTML loses its markup but keeps its structure (block elements become paragraphs,
 * a table row becomes one line with its non-empty cells joined by " | ", so the chunker keeps it whole), Markdown and text are
 * kept as written. Line endings and runs of blank lines are normalized so the same content hashes the same; form
 * feeds stay, as page breaks (empty pages included, so later pages keep their numbers; those after the last text go).
 */
export function extractText(content: string, format: DocumentFormat): string {
  const text = format === 'HTML' ? htmlToText(content) : content;
  return joinPages(text.split(PAGE_BREAK));
}

/** Pages' texts as one text, each normalized, separated by PAGE_BREAK. */
export function joinPages(pages: string[]): string {
  return pages.map(normalizePage).join(PAGE_BREAK).replace(/\f+$/, '');
}

function normalizePage(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/ *\n */g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Whether a document's text has anything but white space and page breaks. */
export function hasText(text: string): boolean {
  return /\S/.test(text.replaceAll(PAGE_BREAK, ''));
}

// Marks the end of a table cell through the conversion; never occurs in real text.
const CELL_END = '\u241E';

function htmlToText(html: string): string {
  let text: string;
  try {
    text = convert(html.replace(/<\/(td|th)\s*>/gi, `${CELL_END}</$1>`), {
      wordwrap: false,
      selectors: [
        { selector: 'a', options: { ignoreHref: true } },
        { selector: 'img', format: 'skip' },
        { selector: 'script', format: 'skip' },
        { selector: 'style', format: 'skip' },
        // Inline XBRL headers hold hidden facts, not readable text.
        { selector: 'ix\\:header', format: 'skip' },
        ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({ selector, options: { uppercase: false } })),
        // A table row becomes one line; its cells are joined below.
        { selector: 'table', format: 'block' },
        { selector: 'tr', format: 'block', options: { leadingLineBreaks: 1, trailingLineBreaks: 1 } },
        { selector: 'td', format: 'inline' },
        { selector: 'th', format: 'inline' },
      ],
    });
  } catch (error) {
    throw new AppError('BAD_USER_INPUT', `The HTML could not be read: ${(error as Error).message}`);
  }
  return text
    .split('\n')
    .map((line) => {
      if (!line.includes(CELL_END)) return line;
      const cells = line
        .split(CELL_END)
        .map((cell) => cell.trim())
        .filter(Boolean);
      // "$" and ")" or "%" often sit in cells of their own: glue them to the number they belong to.
      return cells
        .join(' | ')
        .replace(/\$ \| /g, '$')
        .replace(/ \| ([)%])/g, '$1');
    })
    .join('\n');
}
