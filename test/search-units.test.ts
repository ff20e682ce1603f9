import { expect } from 'chai';
import { chunkText, splitSentences } from '../src/search/chunker';
import { reciprocalRankFusion } from '../src/search/fusion';
import { embedText, stem } from '../src/search/builtin-embedder';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

describe('chunker', () => {
  const options = { targetChars: 200, maxChars: 300, overlapChars: 60 };

  it('splits sentences but not at abbreviations', () => {
    expect(splitSentences('Revenue rose 5%. Apple Inc. sells phones. Margins fell! Is it done? Yes.')).to.deep.equal([
      'Revenue rose 5%.', 'Apple Inc. sells phones.', 'Margins fell!', 'Is it done?', 'Yes.',
    ]);
  });

  it('keeps short paragraphs together and never exceeds the limit', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => `Paragraph ${i} says one thing. It then says another thing about item ${i}.`);
    const chunks = chunkText(paragraphs.join('\n\n'), options);
    expect(chunks.length).to.be.within(3, 8);
    for (const chunk of chunks) expect(chunk.length).to.be.at.most(options.maxChars);
    // Every sentence survives in some chunk.
    for (const paragraph of paragraphs) expect(chunks.some((chunk) => chunk.includes(paragraph)), paragraph).to.equal(true);
  });

  it('cuts long paragraphs between sentences and carries the last sentence over', () => {
    const sentences = Array.from({ length: 20 }, (_, i) => `Sentence number ${i} talks about revenue growth.`);
    const chunks = chunkText(sentences.join(' '), options);
    expect(chunks.length).to.be.above(2);
    for (const chunk of chunks) {
      expect(chunk.trim()).to.match(/^Sentence number \d+/);
      expect(chunk.trim()).to.match(/growth\.$/);
    }
    // Overlap: each chunk after the first starts with the sentence that ended the one before.
    for (let i = 1; i < chunks.length; i += 1) {
      const lastOfPrevious = splitSentences(chunks[i - 1]).at(-1) as string;
      expect(chunks[i].startsWith(lastOfPrevious), `chunk ${i}`).to.equal(true);
    }
  });

  it('keeps table rows whole and repeats the header row in each part of a table', () => {
    const rows = ['Item | 2024 | 2023', ...Array.from({ length: 30 }, (_, i) => `Line item ${i} | ${1000 + i} | ${900 + i}`)];
    const chunks = chunkText(`Selected figures follow.\n\n${rows.join('\n')}`, options);
    expect(chunks.length).to.be.above(2);
    const tableChunks = chunks.filter((chunk) => chunk.includes('Line item'));
    for (const chunk of tableChunks) {
      expect(chunk).to.include('Item | 2024 | 2023');
      for (const line of chunk.split('\n').filter((l) => l.startsWith('Line item'))) expect(line).to.match(/^Line item \d+ \| \d+ \| \d+$/);
    }
    for (const row of rows.slice(1)) expect(chunks.some((chunk) => chunk.includes(row)), row).to.equal(true);
  });

  it('cuts a single overlong sentence between words and returns nothing for blank text', () => {
    const chunks = chunkText('word '.repeat(200), options);
    for (const chunk of chunks) expect(chunk.length).to.be.at.most(options.maxChars);
    expect(chunks.join(' ').split(/\s+/).filter(Boolean).length).to.be.at.least(200);
    expect(chunkText('  \n\n  ')).to.deep.equal([]);
  });
});

describe('reciprocal rank fusion', () => {
  it('adds 1/(k + rank) from each list and orders by the sum', () => {
    const fused = reciprocalRankFusion([['a', 'b', 'c'], ['c', 'a']], 60);
    expect(fused.map((entry) => entry.id)).to.deep.equal(['a', 'c', 'b']);
    expect(fused[0].score).to.be.closeTo(1 / 61 + 1 / 62, 1e-15);
    expect(fused[1].score).to.be.closeTo(1 / 63 + 1 / 61, 1e-15);
    expect(fused[2]).to.deep.include({ ranks: [2, null] });
    expect(fused[2].score).to.be.closeTo(1 / 62, 1e-15);
  });

  it('weighs each list by its weight', () => {
    const fused = reciprocalRankFusion([['a'], ['b']], 60, [1, 0.5]);
    expect(fused.map((entry) => entry.id)).to.deep.equal(['a', 'b']);
    expect(fused[1].score).to.be.closeTo(0.5 / 61, 1e-15);
  });

  it('counts an id once per list and handles empty lists', () => {
    expect(reciprocalRankFusion([['x', 'x'], []])).to.deep.equal([{ id: 'x', score: 1 / 61, ranks: [1, null] }]);
    expect(reciprocalRankFusion([[], []])).to.deep.equal([]);
  });
});

describe('built-in embedder', () => {
  it('is deterministic and unit length', () => {
    const a = embedText('Net income rose in fiscal 2024');
    expect(a).to.deep.equal(embedText('Net income rose in fiscal 2024'));
    expect(Math.sqrt(cosine(a, a))).to.be.closeTo(1, 1e-9);
    expect(embedText('')).to.satisfy((v: number[]) => v.every((x) => x === 0));
  });

  it('brings finance synonyms and inflections closer than unrelated text', () => {
    const capex = embedText('What were the capital expenditures?');
    expect(cosine(capex, embedText('Purchases of property, plant and equipment'))).to.be.above(cosine(capex, embedText('Dividends paid to shareholders')));
    const sales = embedText('net sales increased');
    expect(cosine(sales, embedText('revenue grew'))).to.be.above(cosine(sales, embedText('debt was repaid')));
    expect(stem('expenditures')).to.equal(stem('expenditure'));
  });

  it('lets query term weights pull the query towards the rare word', () => {
    const page = embedText('Nestlé reported revenue growth');
    const other = embedText('Unilever reported revenue growth');
    const plain = embedText('nestle revenue');
    const weighted = embedText('nestle revenue', undefined, (word) => (word === 'nestle' ? 8 : 1));
    expect(cosine(weighted, page) - cosine(weighted, other)).to.be.above(cosine(plain, page) - cosine(plain, other));
    // Accents are folded, so "Nestlé" and "nestle" are the same word.
    expect(cosine(embedText('Nestlé'), embedText('nestle'))).to.be.closeTo(1, 1e-9);
  });
});
