import { expect } from 'chai';
import { chunkText, splitSentences } from '../src/search/chunker';
import { minMaxFusion, reciprocalRankFusion } from '../src/search/fusion';
import { DEFAULT_LSA_OPTIONS, fitLsa, LsaProjector, SAMPLE_SEPARATOR, sampleTexts } from '../src/search/lsa';
import { isSearchableWord, MAX_TERM_LENGTH, stem, termsOf } from '../src/search/terms';
import { encodeTermVector, frequenciesIn, MAX_TERM_FREQUENCY } from '../src/search/term-vector';

const cosine = (a: number[], b: number[]) => a.reduce((sum, value, i) => sum + value * b[i], 0);

describe('chunker', () => {
  const options = { targetChars: 200, maxChars: 300, overlapChars: 60 };

  it('splits sentences but not at abbreviations', () => {
    expect(splitSentences('Revenue rose 5%. Apple Inc. sells phones. Margins fell! Is it done? Yes.')).to.deep.equal([
      'Revenue rose 5%.',
      'Apple Inc. sells phones.',
      'Margins fell!',
      'Is it done?',
      'Yes.',
    ]);
  });

  it('keeps short paragraphs together and never exceeds the limit', () => {
    const paragraphs = Array.from(
      { length: 12 },
      (_, i) => `Paragraph ${i} says one thing. It then says another thing about item ${i}.`,
    );
    const chunks = chunkText(paragraphs.join('\n\n'), options);
    expect(chunks.length).to.be.within(3, 8);
    for (const chunk of chunks) expect(chunk.length).to.be.at.most(options.maxChars);
    // Every sentence survives in some chunk.
    for (const paragraph of paragraphs)
      expect(
        chunks.some((chunk) => chunk.includes(paragraph)),
        paragraph,
      ).to.equal(true);
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
    const rows = [
      'Item | 2024 | 2023',
      ...Array.from({ length: 30 }, (_, i) => `Line item ${i} | ${1000 + i} | ${900 + i}`),
    ];
    const chunks = chunkText(`Selected figures follow.\n\n${rows.join('\n')}`, options);
    expect(chunks.length).to.be.above(2);
    const tableChunks = chunks.filter((chunk) => chunk.includes('Line item'));
    for (const chunk of tableChunks) {
      expect(chunk).to.include('Item | 2024 | 2023');
      for (const line of chunk.split('\n').filter((l) => l.startsWith('Line item')))
        expect(line).to.match(/^Line item \d+ \| \d+ \| \d+$/);
    }
    for (const row of rows.slice(1))
      expect(
        chunks.some((chunk) => chunk.includes(row)),
        row,
      ).to.equal(true);
  });

  it('cuts a single overlong sentence between words and returns nothing for blank text', () => {
    const chunks = chunkText('word '.repeat(200), options);
    for (const chunk of chunks) expect(chunk.length).to.be.at.most(options.maxChars);
    expect(chunks.join(' ').split(/\s+/).filter(Boolean).length).to.be.at.least(200);
    expect(chunkText('  \n\n  ')).to.deep.equal([]);
  });
});

describe('term vectors', () => {
  it("gives back each asked term's frequency in the order asked, 0 for a term the chunk lacks", () => {
    const vector = encodeTermVector([
      [70_000, 3],
      [5, 1],
      [300, 12],
    ]);
    const position = new Map([
      [300, 0],
      [9, 1],
      [5, 2],
      [70_000, 3],
    ]);
    expect(frequenciesIn(vector, position, 4)).to.deep.equal([12, 0, 1, 3]);
  });

  it('writes what PostgreSQL writes for the same pairs (int4send || int2send, by term id), capping the frequency', () => {
    const vector = encodeTermVector([
      [258, 40_000],
      [1, 2],
    ]);
    expect(vector.toString('hex')).to.equal(`00000001${'0002'}00000102${MAX_TERM_FREQUENCY.toString(16)}`);
    expect(frequenciesIn(vector, new Map([[258, 0]]), 1)).to.deep.equal([MAX_TERM_FREQUENCY]);
  });

  it('is empty for a chunk without terms', () => {
    expect(frequenciesIn(encodeTermVector([]), new Map([[1, 0]]), 1)).to.deep.equal([0]);
  });
});

describe('reciprocal rank fusion', () => {
  it('adds 1/(k + rank) from each list and orders by the sum', () => {
    const fused = reciprocalRankFusion(
      [
        ['a', 'b', 'c'],
        ['c', 'a'],
      ],
      60,
    );
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

describe('min-max score fusion over a whole population', () => {
  it('normalizes each list to [0, 1] and adds them with the weights, so a clear first stays first', () => {
    // The text list's first is far ahead; the vector list puts it last of three by a small margin.
    const fused = minMaxFusion(
      [
        [
          { id: 'a', score: 20 },
          { id: 'b', score: 11 },
          { id: 'c', score: 10 },
        ],
        [
          { id: 'b', score: 0.62 },
          { id: 'c', score: 0.61 },
          { id: 'a', score: 0.6 },
        ],
      ],
      [1, 0.45],
      [0, -1],
    );
    expect(fused.map((entry) => entry.id)).to.deep.equal(['a', 'b', 'c']);
    expect(fused[0]).to.deep.equal({ id: 'a', score: 1, ranks: [1, 3] });
    expect(fused[1].score).to.be.closeTo(0.1 + 0.45, 1e-12);
    expect(fused[2].score).to.be.closeTo(0.45 * 0.5, 1e-12);
  });

  it("gives an id a list leaves out that list's absent score, counted in its minimum", () => {
    const fused = minMaxFusion(
      [
        [
          { id: 'a', score: 4 },
          { id: 'b', score: 2 },
        ],
        [
          { id: 'c', score: 0.9 },
          { id: 'b', score: 0.5 },
          { id: 'a', score: 0.1 },
        ],
      ],
      [1, 0.5],
      [0, -1],
    );
    expect(fused.map((entry) => entry.id)).to.deep.equal(['a', 'b', 'c']);
    [1, 0.5 + 0.5 * 0.5, 0.5].forEach((score, i) => expect(fused[i].score).to.be.closeTo(score, 1e-12));
    expect(fused[2].ranks).to.deep.equal([null, 1]);
  });

  it("counts a non-finite score as the list's lowest, a list of equal scores as all first, and an id once per list", () => {
    const fused = minMaxFusion(
      [
        [
          { id: 'x', score: 3 },
          { id: 'x', score: 1 },
          { id: 'y', score: 3 },
        ],
        [
          { id: 'y', score: 0.5 },
          { id: 'x', score: Number.NaN },
        ],
      ],
      [1, 1],
      [0, -1],
    );
    expect(fused).to.deep.equal([
      { id: 'y', score: 2, ranks: [3, 1] },
      { id: 'x', score: 1, ranks: [1, 2] },
    ]);
    expect(minMaxFusion([[], []], [1, 1], [0, 0])).to.deep.equal([]);
  });
});

describe('built-in embedder (LSA)', () => {
  // Two topics; "buyback" and "repurchase" never share a passage, but both share "shares" and "treasury" context.
  const corpus = [
    'The company repurchased shares under its repurchase program and holds them as treasury stock.',
    'Share repurchase activity reduced the count of outstanding shares held in treasury.',
    'A buyback of shares was announced; bought back shares go to treasury.',
    'The buyback lowered outstanding shares and raised treasury stock.',
    'Clinical trials of the drug candidate continue ahead of regulatory approval.',
    'The FDA approval of the candidate depends on phase 3 clinical trial results.',
    'Regulatory review of clinical data may delay approval of the drug.',
    'Capital expenditures rose as the company built new plants.',
    'Purchases of property, plant and equipment were 1,577 million.',
  ];
  const model = fitLsa(corpus, { ...DEFAULT_LSA_OPTIONS, dimensions: 16 });
  const projector = new LsaProjector(model);
  const embed = (text: string) => projector.embed(text);

  it('is deterministic, unit length, and padded to its fixed size', () => {
    expect(model.rank).to.be.within(2, 9);
    const again = new LsaProjector(fitLsa(corpus, { ...DEFAULT_LSA_OPTIONS, dimensions: 16 }));
    expect(again.embed('treasury shares')).to.deep.equal(embed('treasury shares'));
    const vector = embed('Net income rose in fiscal 2024 after the buyback');
    expect(vector).to.have.length(16);
    expect(Math.sqrt(cosine(vector, vector))).to.be.closeTo(1, 1e-6);
    // A text with no term of the vocabulary has no direction.
    expect(embed('zzz qqq')).to.satisfy((v: number[]) => v.every((x) => x === 0));
  });

  it('relates words that occur in the same passages, beyond exact word overlap', () => {
    // Three latent dimensions for three topics: the reduction is what generalizes across co-occurring words.
    const reduced = new LsaProjector(fitLsa(corpus, { ...DEFAULT_LSA_OPTIONS, dimensions: 3 }));
    const embed = (text: string) => reduced.embed(text);
    const buyback = embed('buyback');
    // "repurchase" never appears with "buyback", yet their contexts match; the drug passages share nothing.
    expect(cosine(buyback, embed('repurchase program'))).to.be.above(0.5);
    expect(cosine(buyback, embed('repurchase program'))).to.be.above(
      cosine(buyback, embed('clinical trials approval')) + 0.4,
    );
  });

  it('joins inflections through stemming', () => {
    const capex = embed('capital expenditure');
    expect(cosine(capex, embed('Capital expenditures rose'))).to.be.above(cosine(capex, embed('drug approval')) + 0.5);
    expect(stem('expenditures')).to.equal(stem('expenditure'));
    // Accents are folded and amounts are not topic words; years are.
    expect(termsOf('Nestlé paid 1,577 in 2024')).to.deep.equal(['nestle', 'paid', '2024']);
  });

  it('leaves machine strings out of the terms: digests, base64, words longer than any word; codes people search stay', () => {
    const sha512 = 'ab'.repeat(64);
    const sha256 = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
    const base64 =
      'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
    expect(termsOf(`Checksum ${sha512} and ${sha256} of the filing`)).to.deep.equal(['checksum', 'fil']);
    expect(termsOf(base64)).to.deep.equal(['data', 'image', 'png', 'base64']);
    expect(termsOf(`${'x'.repeat(MAX_TERM_LENGTH + 1)} ${'y'.repeat(MAX_TERM_LENGTH)}`)).to.deep.equal([
      'y'.repeat(MAX_TERM_LENGTH),
    ]);
    // An ISIN (12) and an LEI (20) are codes a searcher types; a German compound is a word.
    expect(termsOf('US0378331005 HWUPKR0MPOU8FGXBT394 Rechnungsabgrenzungsposten')).to.deep.equal([
      'us0378331005',
      'hwupkr0mpou8fgxbt394',
      'rechnungsabgrenzungsposten',
    ]);
    expect(isSearchableWord('a1'.repeat(10))).to.equal(true);
    expect(isSearchableWord(`${'a1'.repeat(10)}b`)).to.equal(false);
    // A word glued to a number is still a word.
    expect(termsOf('quorvantis1764107000000 q3revenue2024')).to.deep.equal([
      'quorvantis1764107000000',
      'q3revenue2024',
    ]);
  });

  it('fits a corpus of one text, and an empty one, without failing', () => {
    const single = fitLsa(['Only one passage about revenue.'], { ...DEFAULT_LSA_OPTIONS, dimensions: 8 });
    expect(single.rank).to.equal(1);
    expect(cosine(new LsaProjector(single).embed('revenue'), new LsaProjector(single).embed('passage'))).to.be.closeTo(
      1,
      1e-6,
    );
    expect(fitLsa([], DEFAULT_LSA_OPTIONS).rank).to.equal(0);
  });

  it('gets back the sample texts, empty and non-ASCII ones included, from the bytes sent to the fit worker', () => {
    const batches = [['Net income rose.', '', 'Nestlé — €1.2bn'], ['']];
    const encoder = new TextEncoder();
    const sample = { batches: batches.map((texts) => encoder.encode(texts.join(SAMPLE_SEPARATOR))) };
    expect(sampleTexts(sample)).to.deep.equal(batches.flat());
  });
});
