/**
 * What a chunk is about beyond its own words: the company, the form, the fiscal period and the section it comes from.
 * A page of Apple's 10-K says "the Company", never "Apple"; the context line lets the question "Apple's foreign
 * exchange risk" find it. The line is indexed and embedded with the chunk but is not part of the returned content.
 */

export interface DocumentContext {
  companyName: string;
  ticker: string;
  docType: string;
  period: string | null;
}

/** Words a question uses for a form ("annual report"), since "10-K" itself is no searchable word. */
const FORM_WORDS: Record<string, string> = {
  '10-K': 'annual report',
  '10-Q': 'quarterly report',
  '8-K': 'current report',
  '20-F': 'annual report',
  '6-K': 'current report',
  'annual-report': 'annual report',
  'earnings-call': 'earnings call transcript',
  'press-release': 'press release',
  presentation: 'presentation',
};

/** "FY2024" → "FY2024 fiscal year 2024"; "Q2-2024" → "Q2-2024 second quarter 2024". */
function periodWords(period: string | null): string {
  if (!period) return '';
  const year = /^FY(\d{4})$/.exec(period);
  if (year) return `${period} fiscal year ${year[1]}`;
  const quarter = /^Q([1-4])-(\d{4})$/.exec(period);
  if (quarter)
    return `${period} ${['first', 'second', 'third', 'fourth'][Number(quarter[1]) - 1]} quarter ${quarter[2]}`;
  return period;
}

/** The context line of a chunk, e.g. "Apple Inc. (AAPL) · 10-K annual report · FY2024 fiscal year 2024 · Item 7. MD&A". */
export function contextLine(document: DocumentContext, section: string | null): string {
  return [
    `${document.companyName} (${document.ticker})`,
    `${document.docType}${FORM_WORDS[document.docType] ? ` ${FORM_WORDS[document.docType]}` : ''}`,
    periodWords(document.period),
    section ?? '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** The text that is indexed and embedded for a chunk: its context line, then its content. */
export function searchableText(context: string | null, content: string): string {
  return context ? `${context}\n${content}` : content;
}

/** An SEC item heading on a line of its own: "Item 7. Management's Discussion and Analysis…", "PART II — ITEM 1A. RISK FACTORS". */
const ITEM_HEADING =
  /^[ \t]*(?:PART[ \t]+[IV]+[ \t]*[-–—,.:]?[ \t]*)?ITEM[ \t]+(\d{1,2}[A-D]?)[ \t]*[.:\-–—]?[ \t]*([^\n]{0,150})$/gim;
/** Several headings in one chunk are a table of contents, not the start of a section. */
const TABLE_OF_CONTENTS_HEADINGS = 3;
/** A heading in the first part of a chunk names the chunk's own section. */
const HEADING_LEADS_SHARE = 0.3;

function headingsOf(text: string): Array<{ index: number; title: string }> {
  const headings: Array<{ index: number; title: string }> = [];
  for (const match of text.matchAll(ITEM_HEADING)) {
    const name = match[2]
      .replace(/\s+\d+$/, '')
      .replace(/[.\s]+$/, '')
      .trim();
    // "Item 7 of this report discusses …" in running text is a reference, not a heading: headings are short lines.
    if (name.length > 100 || /^(of|in|to|and|or)\b/i.test(name)) continue;
    headings.push({
      index: match.index ?? 0,
      title: `Item ${match[1].toUpperCase()}${name ? `. ${capitalize(name)}` : ''}`,
    });
  }
  return headings;
}

function capitalize(text: string): string {
  // An all-capitals heading reads better in title case; anything else is kept as written.
  if (text !== text.toUpperCase()) return text;
  return text.toLowerCase().replace(/\b([a-z])/g, (letter) => letter.toUpperCase());
}

/**
 * The section of each chunk of a document, from SEC item headings in the text: a chunk belongs to the last heading
 * before it, or to a heading near its own start. A document that is itself one section (`given`) keeps that one.
 */
export function sectionsOf(chunks: string[], given: string | null = null): Array<string | null> {
  if (given) return chunks.map(() => given);
  let current: string | null = null;
  return chunks.map((chunk) => {
    const headings = headingsOf(chunk);
    if (headings.length >= TABLE_OF_CONTENTS_HEADINGS) return 'Table of contents';
    const leading = headings.find((heading) => heading.index <= chunk.length * HEADING_LEADS_SHARE);
    const section = leading ? leading.title : current;
    if (headings.length > 0) current = headings[headings.length - 1].title;
    return section;
  });
}
