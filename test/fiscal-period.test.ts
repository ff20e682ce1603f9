import { expect } from 'chai';
import { AppError } from '../src/shared/errors';
import {
  compareNewestFirst,
  parseExactPeriod,
  parsePeriodRequest,
  periodDates,
  previousPeriod,
  quarter,
  fiscalYear,
  samePeriodLastYear,
} from '../src/statements/fiscal-period';

describe('fiscal periods', () => {
  it('parses quarters and fiscal years in any case and trims spaces', () => {
    expect(parseExactPeriod('Q2-2024')).to.deep.equal({
      label: 'Q2-2024',
      type: 'QUARTER',
      fiscalYear: 2024,
      fiscalQuarter: 2,
    });
    expect(parseExactPeriod(' q4-2023 ')).to.deep.include({ label: 'Q4-2023', fiscalQuarter: 4 });
    expect(parseExactPeriod('fy2025')).to.deep.equal({
      label: 'FY2025',
      type: 'ANNUAL',
      fiscalYear: 2025,
      fiscalQuarter: null,
    });
  });

  it('reads omitted, empty and "latest" as the newest quarter and "latest-fy" as the newest fiscal year', () => {
    for (const input of [undefined, null, '', 'latest', 'LATEST']) {
      expect(parsePeriodRequest(input)).to.deep.equal({ kind: 'latest', type: 'QUARTER' });
    }
    expect(parsePeriodRequest('Latest-FY')).to.deep.equal({ kind: 'latest', type: 'ANNUAL' });
  });

  it('rejects anything else with a BAD_USER_INPUT error naming the accepted forms', () => {
    for (const input of ['Q5-2024', 'Q0-2024', '2024', 'FY24', 'Q2 2024', 'Q2-24', 'H1-2024', 'FY2024x', 'Q1-1800']) {
      let error: unknown;
      try {
        parsePeriodRequest(input);
      } catch (caught) {
        error = caught;
      }
      expect(error, input).to.be.instanceOf(AppError);
      expect((error as AppError).code, input).to.equal('BAD_USER_INPUT');
      expect((error as AppError).message, input).to.match(/Q<1-4>-<yyyy>|year must be between/);
    }
  });

  it('steps back one period and one year', () => {
    expect(previousPeriod(quarter(2024, 1)).label).to.equal('Q4-2023');
    expect(previousPeriod(quarter(2024, 3)).label).to.equal('Q2-2024');
    expect(previousPeriod(fiscalYear(2024)).label).to.equal('FY2023');
    expect(samePeriodLastYear(quarter(2024, 2)).label).to.equal('Q2-2023');
    expect(samePeriodLastYear(fiscalYear(2024)).label).to.equal('FY2023');
  });

  it('orders newest first with a fiscal year before its own fourth quarter', () => {
    const labels = [quarter(2023, 4), fiscalYear(2024), quarter(2024, 1), quarter(2024, 4), fiscalYear(2023)]
      .sort(compareNewestFirst)
      .map((period) => period.label);
    expect(labels).to.deep.equal(['FY2024', 'Q4-2024', 'Q1-2024', 'FY2023', 'Q4-2023']);
  });

  it('dates periods of December and non-December fiscal years', () => {
    expect(periodDates(fiscalYear(2024), 12)).to.deep.equal({ start: '2024-01-01', end: '2024-12-31' });
    expect(periodDates(quarter(2024, 1), 12)).to.deep.equal({ start: '2024-01-01', end: '2024-03-31' });
    // A September year end: fiscal 2025 runs October 2024 to September 2025.
    expect(periodDates(fiscalYear(2025), 9)).to.deep.equal({ start: '2024-10-01', end: '2025-09-30' });
    expect(periodDates(quarter(2025, 1), 9)).to.deep.equal({ start: '2024-10-01', end: '2024-12-31' });
    // A January year end: Q4 of fiscal 2024 ends on 31 January 2024; February of a leap year has 29 days.
    expect(periodDates(quarter(2024, 4), 1)).to.deep.equal({ start: '2023-11-01', end: '2024-01-31' });
    expect(periodDates(quarter(2025, 1), 1)).to.deep.equal({ start: '2024-02-01', end: '2024-04-30' });
  });
});
