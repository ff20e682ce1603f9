import { expect } from 'chai';
import { countTerms, inverseDocumentFrequency, proximityBonus, queryTerms, termImpact } from '../src/search/bm25';
import { contextLine, sectionsOf } from '../src/search/chunk-context';
import { diversify, jaccard, termSet } from '../src/search/diversity';
import { expansionOf } from '../src/search/query-expansion';
import { withoutInstructions } from '../src/search/terms';

describe('BM25 scoring', () => {
  it('saturates term frequency: each further mention adds less, and never more than k1 + 1', () => {
    const gains = [1, 2, 3, 4, 5].map((tf) => termImpact(tf, 100, 100));
    for (let i = 1; i < gains.length; i += 1) {
      expect(gains[i]).to.be.above(gains[i - 1]);
      expect(gains[i] - gains[i - 1]).to.be.below(gains[i - 1] - (gains[i - 2] ?? 0));
    }
    expect(termImpact(1000, 100, 100)).to.be.below(2.2);
  });

  it('normalizes by length: the same mention counts less in a longer chunk', () => {
    expect(termImpact(2, 50, 100)).to.be.above(termImpact(2, 100, 100));
    expect(termImpact(2, 100, 100)).to.be.above(termImpact(2, 400, 100));
  });

  it('weighs rare terms above common ones, and stays positive for a term in every chunk', () => {
    expect(inverseDocumentFrequency(1000, 3)).to.be.above(inverseDocumentFrequency(1000, 300));
    expect(inverseDocumentFrequency(1000, 1000)).to.be.above(0);
  });

  it('counts terms with repeats and reads a question without repeats', () => {
    const { length, frequencies } = countTerms('Goodwill impairment: goodwill was tested.');
    expect(frequencies.get('goodwill')).to.equal(2);
    expect(length).to.equal(4);
    expect(queryTerms('goodwill and goodwill impairment', 32)).to.deep.equal(['goodwill', 'impair']);
  });

  it('boosts chunks that keep neighbouring query words together, in order', () => {
    const terms = queryTerms('operating lease liabilities', 32);
    const idf = new Map(terms.map((term) => [term, 2]));
    const together = proximityBonus(terms, idf, 'Our operating lease liabilities rose.');
    const apart = proximityBonus(
      terms,
      idf,
      'Operating income rose sharply in every region. The lease of the main building expired in June. Total current liabilities were unchanged.',
    );
    expect(together).to.equal(4);
    expect(apart).to.equal(0);
  });
});

describe('chunk context', () => {
  it('names company, ticker, form, period and section in words a question uses', () => {
    const line = contextLine(
      { companyName: 'Apple Inc.', ticker: 'AAPL', docType: '10-K', period: 'FY2024' },
      'Item 7. MD&A',
    );
    expect(line).to.equal('Apple Inc. (AAPL) · 10-K annual report · FY2024 fiscal year 2024 · Item 7. MD&A');
    expect(contextLine({ companyName: 'X', ticker: 'X', docType: '10-Q', period: 'Q2-2023' }, null)).to.include(
      'second quarter 2023',
    );
  });

  it('gives each chunk the section of the item heading before it, and a table of contents its own', () => {
    const chunks = [
      "Table of Contents\nItem 1. Business 3\nItem 1A. Risk Factors 9\nItem 7. Management's Discussion and Analysis 30",
      'PART I\nITEM 1. BUSINESS\nThe Company designs phones.',
      'It also sells services.',
      'More on services.\n\nItem 1A. Risk Factors\nSupply may fail.',
      'Demand may fall.',
    ];
    expect(sectionsOf(chunks)).to.deep.equal([
      'Table of contents',
      'Item 1. Business',
      'Item 1. Business',
      'Item 1. Business',
      'Item 1A. Risk Factors',
    ]);
    expect(sectionsOf(['a', 'b'], 'Item 8. Financial Statements')).to.deep.equal([
      'Item 8. Financial Statements',
      'Item 8. Financial Statements',
    ]);
  });
});

describe('result diversity', () => {
  it('measures overlap of term sets', () => {
    expect(jaccard(termSet('capital expenditures rose'), termSet('capital expenditures rose'))).to.equal(1);
    expect(jaccard(termSet('capital expenditures rose'), termSet('dividends fell'))).to.equal(0);
  });

  it('collapses near-duplicates and caps chunks per document, filling up with the deferred ones', () => {
    const text = (i: number) =>
      `Passage ${['alpha', 'bravo', 'charlie', 'delta'][i]} covers ${['copper', 'nickel', 'cobalt', 'lithium'][i]} prices and ${['rail', 'ship', 'truck', 'air'][i]} freight.`;
    const ranked = [
      { id: 1, documentId: 10, content: text(0) },
      { id: 2, documentId: 11, content: `${text(0)} ` }, // the same passage in another document
      { id: 3, documentId: 10, content: text(1) },
      { id: 4, documentId: 10, content: text(2) },
      { id: 5, documentId: 12, content: text(3) },
    ];
    expect(diversify(ranked, 3)).to.deep.equal([1, 3, 5]);
    expect(diversify(ranked, 5)).to.deep.equal([1, 3, 5, 4]);
  });
});

describe('query processing', () => {
  it('drops the words that say how to answer, keeping what the question is about', () => {
    const query =
      'What is the FY2018 capital expenditure for 3M? Give a response relying on the details shown in the cash flow statement, rounded to one decimal place.';
    const kept = withoutInstructions(query).toLowerCase();
    for (const word of ['fy2018', 'capital', 'expenditure', '3m', 'cash', 'flow', 'statement'])
      expect(kept).to.include(word);
    for (const word of ['response', 'relying', 'details', 'decimal', 'rounded']) expect(kept).not.to.include(word);
    // A query of nothing but such words is kept as it is rather than emptied.
    expect(withoutInstructions('Please answer')).to.equal('Please answer');
  });

  it('adds the wording filings use for the metrics a question names, and nothing for other questions', () => {
    const capex = expansionOf('What was capex in FY2021?');
    expect(capex).to.include('purchases of property and equipment').and.to.include('statements of cash flows');
    const quick = expansionOf('Has the quick ratio improved?');
    for (const field of ['cash and equivalents', 'receivables', 'total current liabilities'])
      expect(quick).to.include(field);
    expect(expansionOf('Who are the primary customers of Boeing?')).to.equal('');
  });
});
