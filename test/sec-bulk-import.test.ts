import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import yazl from 'yazl';
import { importCompanyFacts, type CompanyFactsFile } from '../src/sec/companyfacts';
import { filerProfile, sectorOfSic } from '../src/sec/submissions';
import { requestAs, type GraphQLAnswer } from './helpers/http';
import type { Schema } from '../sdk/typescript/src';
import { freshDataDir, startTestApp, TARGET } from './helpers/test-app';
import { runCli } from './helpers/cli';

const SEC = path.join(__dirname, '..', '..', '..', 'shared', 'data', 'sec_xbrl');
const FACTS = path.join(SEC, 'companyfacts');
const MARVELL = 'CIK0001835632.json';
const SNOWFLAKE = 'CIK0001640147.json';
const LPA = 'CIK0001997711.json';

/** A submissions file as the SEC's submissions.zip holds them (the fields the import reads). */
const MARVELL_SUBMISSIONS = {
  cik: '1835632',
  name: 'Marvell Technology, Inc.',
  sic: '3674',
  sicDescription: 'Semiconductors & Related Devices',
  tickers: ['MRVL'],
  exchanges: ['Nasdaq'],
  fiscalYearEnd: '0131',
  formerNames: [{ name: 'Maui HoldCo, Inc.', from: '2020-11-23', to: '2021-04-20' }],
};

/** Writes a zip of the given entries (name → bytes) and resolves with its path. */
function writeZip(file: string, entries: Record<string, Buffer>): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const [name, bytes] of Object.entries(entries)) zip.addBuffer(bytes, name);
  zip.end();
  return new Promise((resolve, reject) =>
    zip.outputStream
      .pipe(fs.createWriteStream(file))
      .once('close', () => resolve(file))
      .once('error', reject),
  );
}

const factsOf = (name: string) => fs.readFileSync(path.join(FACTS, name));

describe('bulk SEC import (npm run import:sec -- --bulk)', function () {
  this.timeout(300_000);
  let folder: string;

  before(function () {
    // The CLI writes into an embedded database of its own (DATA_DIR).
    if (TARGET !== 'embedded' || !fs.existsSync(FACTS)) this.skip();
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'fis-bulk-'));
  });
  after(() => folder && fs.rmSync(folder, { recursive: true, force: true }));

  const run = (args: string[], env: Record<string, string>) =>
    runCli('import-sec', ['--tickers', path.join(SEC, 'company_tickers.json'), ...args], {
      SEC_USER_AGENT: '',
      ...env,
    });

  it('maps SIC codes to the documented sectors and reads a submissions file', () => {
    expect([3674, 7372, 2834, 6798, 6022, 1311, 4911, 5411, 3711, 4813, 2800].map(sectorOfSic)).to.deep.equal([
      'Information Technology',
      'Information Technology',
      'Health Care',
      'Real Estate',
      'Financials',
      'Energy',
      'Utilities',
      'Consumer Staples',
      'Consumer Discretionary',
      'Communication Services',
      'Materials',
    ]);
    expect([null, '', 9995, 'x'].map(sectorOfSic)).to.deep.equal([
      'Unclassified',
      'Unclassified',
      'Unclassified',
      'Unclassified',
    ]);
    expect(filerProfile(MARVELL_SUBMISSIONS)).to.deep.equal({
      cik: 1835632,
      sector: 'Information Technology',
      sic: 3674,
      fiscalYearEndMonth: 1,
      tickers: ['MRVL'],
      exchange: 'Nasdaq',
      formerNames: ['Maui HoldCo, Inc.'],
    });
    expect(filerProfile({ filings: {} })).to.equal(null);
  });

  it('streams a companyfacts zip with submissions, says what it refused and why, and a second run changes nothing', async () => {
    const unlisted = { ...(JSON.parse(factsOf(LPA).toString()) as CompanyFactsFile), cik: 999_999_001 };
    const facts = await writeZip(path.join(folder, 'companyfacts.zip'), {
      [MARVELL]: factsOf(MARVELL),
      [SNOWFLAKE]: factsOf(SNOWFLAKE),
      'CIK0999999001.json': Buffer.from(JSON.stringify(unlisted)),
      'CIK0000000002.json': Buffer.from('{"cik": 2, "entityName": "Broken'),
    });
    const submissions = await writeZip(path.join(folder, 'submissions.zip'), {
      [MARVELL]: Buffer.from(JSON.stringify(MARVELL_SUBMISSIONS)),
      'CIK0001835632-submissions-001.json': Buffer.from(JSON.stringify({ accessionNumber: [] })),
    });
    const env = { DATA_DIR: freshDataDir() };
    const first = await run(['--bulk', facts, '--submissions', submissions], env);
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stderr).to.match(/\[#+\] 4\/4 files, 2 imported, [\d.]+ companies\/s, ETA \d+s/);
    expect(first.stdout).to.match(/4 files, 2 imported, 0 skipped \(unchanged since the last import\), 2 not imported/);
    expect(first.stdout).to.match(
      /1 × no ticker: neither the submissions nor company_tickers\.json list one \(CIK0999999001\.json\)/,
    );
    expect(first.stdout).to.match(/1 × not JSON: .* \(CIK0000000002\.json\)/);

    const again = await run(['--bulk', facts, '--submissions', submissions], env);
    expect(again.stdout).to.match(/4 files, 0 imported, 2 skipped \(unchanged since the last import\), 2 not imported/);

    const service = await startTestApp({ dataDir: env.DATA_DIR });
    try {
      const graph = <T>(query: string) =>
        requestAs<GraphQLAnswer<T>>(
          null,
          '/graphql',
          { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query }) },
          service.url,
        );
      const { body } = await graph<Pick<Schema.Query, 'companies'>>(
        '{ companies(limit: 100) { total items { ticker sector exchange fiscalYearEnd formerNames cik } } }',
      );
      expect(body.data.companies.total).to.equal(2);
      const [mrvl, snow] = body.data.companies.items;
      expect(mrvl).to.deep.equal({
        ticker: 'MRVL',
        sector: 'Information Technology',
        exchange: 'Nasdaq',
        fiscalYearEnd: 1,
        formerNames: ['Maui HoldCo, Inc.'],
        cik: 1835632,
      });
      // Without submissions: as a single-file import leaves it.
      expect(snow).to.include({ ticker: 'SNOW', sector: 'Unclassified', formerNames: null });
      // The figures are the single-file import's.
      const single = importCompanyFacts(JSON.parse(factsOf(MARVELL).toString()) as CompanyFactsFile);
      const year = single.statements.find((s) => s.statement === 'income' && s.period.startsWith('FY'))!;
      const stored = await graph<{ company: Schema.Company }>(
        `{ company(ticker: "MRVL") { incomeStatement(period: "${year.period}") { revenue netIncome } } }`,
      );
      expect(stored.body.data.company.incomeStatement).to.deep.equal({
        revenue: year.values.revenue ?? null,
        netIncome: year.values.netIncome ?? null,
      });
    } finally {
      await service.close();
    }
  });

  it('goes on where an earlier run stopped, and reads a folder of files like an archive', async () => {
    const env = { DATA_DIR: freshDataDir() };
    const half = await writeZip(path.join(folder, 'half.zip'), { [SNOWFLAKE]: factsOf(SNOWFLAKE) });
    const whole = await writeZip(path.join(folder, 'whole.zip'), {
      [SNOWFLAKE]: factsOf(SNOWFLAKE),
      [MARVELL]: factsOf(MARVELL),
    });
    expect((await run(['--bulk', half], env)).stdout).to.match(/1 files, 1 imported, 0 skipped/);
    expect((await run(['--bulk', whole], env)).stdout).to.match(/2 files, 1 imported, 1 skipped/);

    const files = path.join(folder, 'facts');
    fs.mkdirSync(files);
    for (const name of [SNOWFLAKE, MARVELL]) fs.copyFileSync(path.join(FACTS, name), path.join(files, name));
    fs.writeFileSync(path.join(files, 'README.txt'), 'not a company-facts file');
    const fromFolder = { DATA_DIR: freshDataDir() };
    expect((await run(['--bulk', files], fromFolder)).stdout).to.match(/2 files, 2 imported, 0 skipped/);
    expect((await run(['--bulk', files], fromFolder)).stdout).to.match(/2 files, 0 imported, 2 skipped/);

    const missing = await run(['--bulk', path.join(folder, 'nowhere.zip')], env);
    expect(missing.status).to.equal(1);
    expect(missing.stderr).to.match(/no such archive or folder: .*nowhere\.zip/);
  });
});
