/**
 * Splits a document into retrieval chunks. Paragraphs stay together when they fit; a long paragraph is cut between
 * sentences; table rows are never cut, and a table split across chunks repeats its header row so each part still says
 * what its columns are. Each chunk after the first starts with the last sentence (or row) of the one before, so a fact
 * that straddles a boundary is whole in at least one chunk.
 */
export interface ChunkOptions {
  /** Chunks are filled up to about this many characters. */
  targetChars: number;
  /** No chunk is longer than this (a single longer sentence is cut between words). */
  maxChars: number;
  /** At most this many characters of the previous chunk are repeated at the start of the next. */
  overlapChars: number;
}

export const DEFAULT_CHUNK_OPTIONS: ChunkOptions = { targetChars: 1200, maxChars: 2000, overlapChars: 200 };

import { splitSentences } from '../documents/sentences';

export { splitSentences };

interface Unit {
  text: string;
  /** Units of one block (paragraph or table) are joined by a newline, blocks by a blank line. */
  block: number;
  /** For table rows: the header row of their table. */
  tableHeader?: string;
}

const TABLE_ROW = /\|.*\||\S {2,}\S.* {2,}\S|\t/;

function isTable(lines: string[]): boolean {
  return lines.length >= 2 && lines.filter((line) => TABLE_ROW.test(line)).length >= Math.ceil(lines.length * 0.6);
}

/** Cuts a too-long piece between words so no piece exceeds `maxChars`. */
function splitLong(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const pieces: string[] = [];
  let rest = text;
  while (rest.length > maxChars) {
    const cut = rest.lastIndexOf(' ', maxChars);
    const at = cut > maxChars / 2 ? cut : maxChars;
    pieces.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) pieces.push(rest);
  return pieces;
}

function toUnits(text: string, maxChars: number): Unit[] {
  const blocks = text.replace(/\r\n?/g, '\n').split(/\n\s*\n/);
  const units: Unit[] = [];
  blocks.forEach((block, index) => {
    const lines = block
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    if (lines.length === 0) return;
    if (isTable(lines)) {
      const header = lines[0];
      for (const line of lines)
        for (const piece of splitLong(line, maxChars)) units.push({ text: piece, block: index, tableHeader: header });
      return;
    }
    for (const sentence of splitSentences(lines.join(' '))) {
      for (const piece of splitLong(sentence, maxChars)) units.push({ text: piece, block: index });
    }
  });
  return units;
}

function render(units: Unit[]): string {
  let text = '';
  units.forEach((unit, i) => {
    if (i > 0) text += unit.block === units[i - 1].block ? (unit.tableHeader ? '\n' : ' ') : '\n\n';
    text += unit.text;
  });
  return text;
}

/** Chunks `text`; returns [] for text with nothing but white space. */
export function chunkText(text: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): string[] {
  const units = toUnits(text, options.maxChars);
  const chunks: string[] = [];
  let current: Unit[] = [];
  let length = 0;
  let fresh = 0; // units in `current` that are not overlap from the previous chunk

  const flush = () => {
    if (fresh === 0) return;
    chunks.push(render(current));
    // Carry the last units (up to overlapChars) into the next chunk.
    const carried: Unit[] = [];
    let carriedLength = 0;
    for (let i = current.length - 1; i >= 0; i -= 1) {
      if (carriedLength + current[i].text.length > options.overlapChars) break;
      carried.unshift(current[i]);
      carriedLength += current[i].text.length + 1;
    }
    current = carried;
    length = carriedLength;
    fresh = 0;
  };

  for (const unit of units) {
    const previous = current[current.length - 1];
    const newBlock = previous !== undefined && previous.block !== unit.block;
    const wouldBe = length + unit.text.length + (newBlock ? 2 : 1);
    // Prefer to end a chunk at a paragraph boundary once it is reasonably full.
    const fullEnough = newBlock && fresh > 0 && length >= options.targetChars * 0.6;
    if (fresh > 0 && (wouldBe > options.targetChars || fullEnough)) flush();
    if (fresh === 0) startChunkWith(unit);
    current.push(unit);
    length += unit.text.length + 1;
    fresh += 1;
  }
  flush();
  return chunks;

  /** Shapes the carried-over start of a new chunk for `unit`: a table part begins with its header row. */
  function startChunkWith(unit: Unit): void {
    if (unit.tableHeader && chunks.length > 0 && unit.text !== unit.tableHeader) {
      const sameTable = current.filter((u) => u.block === unit.block && u.text !== unit.tableHeader);
      current = [{ text: unit.tableHeader, block: unit.block, tableHeader: unit.tableHeader }, ...sameTable];
      length = current.reduce((sum, u) => sum + u.text.length + 1, 0);
    }
    // Never let the carried text push a chunk past the hard limit.
    if (length + unit.text.length + 2 > options.maxChars) {
      current = [];
      length = 0;
    }
  }
}

/** A chunk and the page it comes from. */
export interface PageChunk {
  content: string;
  /** 1-based: the number of page breaks (form feeds) before it, plus one. */
  page: number;
}

/**
 * Chunks a text page by page (pages are separated by form feeds): no chunk spans two pages, so each keeps the one it
 * comes from; an empty page gives no chunk but still counts. A text without page breaks is page 1.
 */
export function chunkPages(text: string, options: ChunkOptions = DEFAULT_CHUNK_OPTIONS): PageChunk[] {
  return text
    .split('\f')
    .flatMap((page, index) => chunkText(page, options).map((content) => ({ content, page: index + 1 })));
}
