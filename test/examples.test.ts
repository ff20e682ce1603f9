import path from 'node:path';
import { expect } from 'chai';
import { app } from './helpers/shared-app';
import { keysFor } from './helpers/keys';
import { get, type Data, type Page } from './helpers/http';
import type { Company, CompanyProfile, Ratios } from '../sdk/typescript/src';
import { hasPython, runProgram, type CliResult } from './helpers/cli';

const ROOT = path.join(__dirname, '..', '..');
const TYPESCRIPT = path.join(ROOT, 'dist', 'examples', 'typescript');
const PYTHON = path.join(ROOT, 'examples', 'python');

/** The example programs (examples/, docs/sdks.md), run as a user would against the service. */
describe('examples/', function () {
  this.timeout(60_000);
  const env = () => ({
    FIS_BASE_URL: app().url,
    FIS_API_KEY: keysFor(app().url).analyst,
    PYTHONPATH: path.join(ROOT, 'sdk', 'python'),
    PYTHONDONTWRITEBYTECODE: '1',
  });
  const programs = {
    typescript: {
      growth: (sector: string) =>
        runProgram(process.execPath, [path.join(TYPESCRIPT, 'fastest-growth.js'), sector], { env: env() }),
      chat: (question: string, ticker: string) =>
        runProgram(process.execPath, [path.join(TYPESCRIPT, 'chat-stream.js'), question, ticker], { env: env() }),
    },
    python: {
      growth: (sector: string) =>
        runProgram('python3', [path.join(PYTHON, 'fastest_growth.py'), sector], { env: env() }),
      chat: (question: string, ticker: string) =>
        runProgram('python3', [path.join(PYTHON, 'chat_stream.py'), question, ticker], { env: env() }),
    },
  };

  /** The sector's companies with annual revenue growth, fastest first, as the REST API reports them. */
  async function fastestGrowth(sector: string): Promise<string[]> {
    const companies = (await get<Page<Company>>(`/v1/companies?sector=${encodeURIComponent(sector)}&limit=100`)).body
      .data;
    const rows = [];
    for (const company of companies) {
      const ratios = await get<Data<Ratios>>(`/v1/companies/${company.id}/ratios?period=latest-fy`);
      if (ratios.status === 200 && ratios.body.data.revenue_growth !== null)
        rows.push({ ticker: company.ticker, growth: ratios.body.data.revenue_growth });
    }
    return rows
      .sort((a, b) => b.growth - a.growth)
      .slice(0, 5)
      .map((row) => row.ticker);
  }

  const ok = (result: CliResult) => {
    expect(result.status, result.stderr).to.equal(0);
    return result.stdout;
  };

  for (const language of ['typescript', 'python'] as const) {
    describe(language, () => {
      before(function () {
        if (language === 'python' && !hasPython()) {
          console.log('    python3 is not installed: the Python examples are skipped');
          this.skip();
        }
      });

      it('prints the five companies of a sector with the fastest revenue growth, fastest first', async () => {
        const sector = (await get<Page<Company>>('/v1/companies?limit=1')).body.data[0].sector;
        const output = ok(await programs[language].growth(sector));
        const lines = output.trim().split('\n');
        expect(lines[0]).to.equal(`Fastest revenue growth in ${sector}:`);
        const expected = await fastestGrowth(sector);
        expect(expected.length).to.be.above(0);
        expect(lines.slice(1).map((line) => line.split(/\s+/)[0])).to.deep.equal(expected);
        const percents = lines.slice(1).map((line) => Number(line.match(/(-?\d+\.\d)%/)![1]));
        expect(percents).to.deep.equal([...percents].sort((a, b) => b - a));
      });

      it('prints a chat answer as it streams, then its sources and conversation', async () => {
        const ticker = (await get<Data<CompanyProfile>>('/v1/companies/1')).body.data.ticker;
        const output = ok(await programs[language].chat('How did revenue change?', ticker));
        const [answer, tail] = output.split('\n\nSources: ');
        expect(answer.length).to.be.above(20);
        expect(answer).to.match(/\d/);
        expect(tail).to.match(new RegExp(`^${ticker} `));
        expect(tail).to.match(/\nConversation: [0-9a-f-]{36}\n$/);
      });
    });
  }
});
