/** Sentences of prose, shared by the chunker and the reading of figures from documents. */

// Abbreviations that end in a period without ending a sentence.
const NOT_SENTENCE_END =
  /\b(?:Inc|Corp|Co|Ltd|No|Nos|vs|etc|e\.g|i\.e|U\.S|Mr|Ms|Dr|St|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.$/i;

/** Splits prose into sentences at ., ! or ? followed by space and a capital, digit or quote. */
export function splitSentences(paragraph: string): string[] {
  const text = paragraph.replace(/\s+/g, ' ').trim();
  if (!text) return [];
  const sentences: string[] = [];
  let start = 0;
  const boundary = /[.!?]["')\]]?\s+(?=["'([]?[A-Z0-9$])/g;
  for (let match = boundary.exec(text); match; match = boundary.exec(text)) {
    const end = match.index + match[0].trimEnd().length;
    if (NOT_SENTENCE_END.test(text.slice(start, end))) continue;
    sentences.push(text.slice(start, end));
    start = match.index + match[0].length;
  }
  if (start < text.length) sentences.push(text.slice(start));
  return sentences;
}
