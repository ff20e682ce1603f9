import { extractText } from '../search/text-extraction';

/**
 * A 10-K or 10-Q primary document (inline-XBRL HTML) → its cover facts and its sections ("Item 1A. Risk Factors",
 * "Item 7. Management's Discussion…"), each to be stored as a titled document.
 */

export interface FilingSection {
  /** item_1A for a 10-K; part1_item2 for a 10-Q. */
  key: string;
  title: string;
  text: string;
}

export interface ParsedFiling {
  ticker: string | null;
  cik: number | null;
  form: string | null;
  /** The filing's fiscal focus as the filer tagged it (dei), e.g. FY2024 or Q2-2026. */
  period: string | null;
  sections: FilingSection[];
}

/** The text of the first inline-XBRL fact with this dei name. */
function deiValue(html: string, name: string): string | null {
  const match = new RegExp(`<ix:nonNumeric[^>]*name="dei:${name}"[^>]*>([\\s\\S]*?)</ix:nonNumeric>`, 'i').exec(html);
  if (!match) return null;
  const text = match[1]
    .replace(/<[^>]+>/g, '')
    .replace(/&#160;|&nbsp;/g, ' ')
    .trim();
  return text || null;
}

const HEADING = /^\s*item\s+(\d{1,2}[A-C]?)\s*[.:\u2014\u2013-]?\s*(.*)$/i;
const PART = /^\s*part\s+(I{1,3}|IV)\b/i;
// A table-of-contents line ends in a page number, or sits in a table row.
const TOC_LINE = /(\|\s*\d{1,3}\s*$)|(\s\d{1,3}\s*$)/;

/** Sections at their "Item N" headings; where an item appears twice (contents, body), the longest body wins. */
export function splitSections(text: string, form: string | null): FilingSection[] {
  const lines = text.split('\n');
  const quarterly = /10-Q/i.test(form ?? '');
  const starts: Array<{ line: number; key: string; title: string }> = [];
  let part = 'part1';
  lines.forEach((line, index) => {
    const partMatch = PART.exec(line);
    if (partMatch && line.length < 80) part = partMatch[1].toUpperCase() === 'I' ? 'part1' : 'part2';
    const heading = HEADING.exec(line);
    if (!heading || line.length > 200 || TOC_LINE.test(line)) return;
    const item = heading[1].toUpperCase().replace(/^(\d+)([A-C])$/, '$1$2');
    const key = quarterly ? `${part}_item${item}` : `item_${item}`;
    starts.push({
      line: index,
      key,
      title: `Item ${item}. ${heading[2].replace(/\s+/g, ' ').trim()}`.replace(/\.\s*$/, '').trim(),
    });
  });
  const best = new Map<string, FilingSection>();
  starts.forEach((start, i) => {
    const end = i + 1 < starts.length ? starts[i + 1].line : lines.length;
    const body = lines
      .slice(start.line + 1, end)
      .join('\n')
      .trim();
    const seen = best.get(start.key);
    if (!seen || body.length > seen.text.length)
      best.set(start.key, { key: start.key, title: start.title, text: body });
  });
  return [...best.values()].filter((section) => section.text.length >= 200);
}

export function parseFiling(html: string): ParsedFiling {
  const form = deiValue(html, 'DocumentType');
  const year = deiValue(html, 'DocumentFiscalYearFocus');
  const focus = deiValue(html, 'DocumentFiscalPeriodFocus');
  const period =
    year && /^\d{4}$/.test(year) && focus
      ? focus === 'FY'
        ? `FY${year}`
        : /^Q[1-4]$/.test(focus)
          ? `${focus}-${year}`
          : null
      : null;
  const cik = deiValue(html, 'EntityCentralIndexKey');
  // The hidden inline-XBRL header holds contexts and units, not text a reader sees.
  const visible = html.replace(/<ix:header>[\s\S]*?<\/ix:header>/gi, '');
  return {
    ticker: deiValue(html, 'TradingSymbol'),
    cik: cik && /^\d+$/.test(cik) ? Number(cik) : null,
    form,
    period,
    sections: splitSections(extractText(visible, 'HTML'), form),
  };
}
