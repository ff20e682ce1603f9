import path from 'node:path';
import { expect } from 'chai';
import { FinancialInsightsClient } from '../sdk/typescript/src';
import type {
  CompareRequest,
  CreateApiKeyRequest,
  CreateCompanyRequest,
  IngestDocumentRequest,
  ListCompaniesQuery,
  PeriodsQuery,
  ScreenQuery,
  RatiosHistoryQuery,
  RatiosQuery,
  SearchRequest,
  StatementHistoryQuery,
  StatementQuery,
  SummarizeRequest,
  UpdateCompanyRequest,
  operations,
} from '../sdk/typescript/src/types';
import { openApiDocument } from '../sdk/generate/generated-files';
import type { OpenApiDocument } from './helpers/openapi-document';
import { hasPython, runProgram } from './helpers/cli';

const PYTHON_SDK = path.join(__dirname, '..', '..', 'sdk', 'python');

/**
 * The SDK methods of each operation of the OpenAPI document, in each language. A route added to the service without
 * its methods here (and in both SDKs) fails this test.
 */
const OPERATIONS: Record<string, { typescript: string[]; python: string[] }> = {
  ListCompanies: {
    typescript: ['companies.list', 'companies.pages', 'companies.all', 'companies.byTicker'],
    python: ['companies.list', 'companies.pages', 'companies.all', 'companies.by_ticker'],
  },
  GetCompany: { typescript: ['companies.get'], python: ['companies.get'] },
  Screen: { typescript: ['companies.screen'], python: ['companies.screen'] },
  CreateCompany: { typescript: ['companies.create'], python: ['companies.create'] },
  UpdateCompany: { typescript: ['companies.update'], python: ['companies.update'] },
  ListPeriods: { typescript: ['companies.periods'], python: ['companies.periods'] },
  GetDataQuality: { typescript: ['companies.dataQuality'], python: ['companies.data_quality'] },
  GetIncomeStatement: {
    typescript: ['statements.income', 'statements.incomeHistory'],
    python: ['statements.income', 'statements.income_history'],
  },
  GetBalanceSheet: {
    typescript: ['statements.balanceSheet', 'statements.balanceSheetHistory'],
    python: ['statements.balance_sheet', 'statements.balance_sheet_history'],
  },
  GetCashFlow: {
    typescript: ['statements.cashFlow', 'statements.cashFlowHistory'],
    python: ['statements.cash_flow', 'statements.cash_flow_history'],
  },
  GetRatios: {
    typescript: ['statements.ratios', 'statements.ratiosHistory'],
    python: ['statements.ratios', 'statements.ratios_history'],
  },
  ListRatioDefinitions: { typescript: ['statements.ratioDefinitions'], python: ['statements.ratio_definitions'] },
  Search: { typescript: ['search'], python: ['search'] },
  GetDocument: { typescript: ['documents.get'], python: ['documents.get'] },
  IngestDocument: { typescript: ['documents.ingest'], python: ['documents.ingest'] },
  Summarize: { typescript: ['ai.summarize'], python: ['ai.summarize'] },
  Compare: { typescript: ['ai.compare'], python: ['ai.compare'] },
  Chat: { typescript: ['ai.chat', 'ai.ask', 'ai.chatGraphql'], python: ['ai.chat', 'ai.ask', 'ai.chat_graphql'] },
  IssueToken: { typescript: ['auth.token'], python: ['auth.token'] },
  ListApiKeys: { typescript: ['admin.keys.list'], python: ['admin.keys.list'] },
  CreateApiKey: { typescript: ['admin.keys.create'], python: ['admin.keys.create'] },
  RevokeApiKey: { typescript: ['admin.keys.revoke'], python: ['admin.keys.revoke'] },
};

/** Operations the SDKs leave out on purpose. */
const NOT_IN_SDKS: Record<string, string> = {
  StartSession:
    'browser sign-in: a session cookie for the web front end, not for programs (they send a key or a token)',
  EndSession: 'browser sign-out, as above',
};

/**
 * Parameters a method fixes itself: `format` (the SDKs read JSON), the chat's `stream` (the method says), and the
 * token request's grant type and client id (client credentials, any id).
 */
const FIXED_BY_THE_METHOD = new Set(['format', 'stream', 'grant_type', 'client_id']);

/** The query and body parameters of each operation of the document. */
function parametersOf(document: OpenApiDocument): Record<string, string[]> {
  const schemas = document.components.schemas;
  const result: Record<string, string[]> = {};
  for (const item of Object.values(document.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (method === 'head') continue;
      const query = (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
      const body = operation.requestBody?.content['application/json']?.schema?.$ref;
      const fields = body ? Object.keys(schemas[body.split('/').at(-1)!].properties!) : [];
      result[operation.operationId] = [...query, ...fields].filter((name) => !FIXED_BY_THE_METHOD.has(name));
    }
  }
  return result;
}

/** Each Python method's parameter names, read from the package itself. */
async function pythonSignatures(methods: string[]): Promise<Record<string, string[]>> {
  const script = `
import inspect, json, sys
from fis_sdk import Client
client = Client("http://localhost:1", api_key="")
out = {}
for dotted in json.loads(sys.argv[1]):
    target = client
    for name in dotted.split("."):
        target = getattr(target, name)
    out[dotted] = list(inspect.signature(target).parameters)
print(json.dumps(out))`;
  const run = await runProgram('python3', ['-c', script, JSON.stringify(methods)], {
    cwd: PYTHON_SDK,
    env: { PYTHONDONTWRITEBYTECODE: '1' },
  });
  expect(run.status, run.stderr).to.equal(0);
  return JSON.parse(run.stdout);
}

/** Whether two unions of names are the same set (a compile-time check: `true` does not type-check otherwise). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type QueryNames<Op extends keyof operations> = Exclude<
  keyof NonNullable<operations[Op]['parameters']['query']>,
  'format'
>;

// The TypeScript SDK's inputs are the document's: every query parameter and body field, checked when this compiles.
const TYPESCRIPT_INPUTS: true[] = [
  true satisfies Same<keyof ListCompaniesQuery, QueryNames<'ListCompanies'>>,
  true satisfies Same<keyof ScreenQuery, QueryNames<'Screen'>>,
  true satisfies Same<keyof StatementQuery | keyof StatementHistoryQuery, QueryNames<'GetIncomeStatement'>>,
  true satisfies Same<keyof RatiosQuery | keyof RatiosHistoryQuery, QueryNames<'GetRatios'>>,
  true satisfies Same<keyof PeriodsQuery, QueryNames<'ListPeriods'>>,
  true satisfies Same<
    keyof SearchRequest,
    keyof NonNullable<operations['Search']['requestBody']>['content']['application/json']
  >,
  true satisfies Same<
    keyof IngestDocumentRequest,
    keyof NonNullable<operations['IngestDocument']['requestBody']>['content']['application/json']
  >,
  true satisfies Same<
    keyof SummarizeRequest,
    keyof NonNullable<operations['Summarize']['requestBody']>['content']['application/json']
  >,
  true satisfies Same<
    keyof CompareRequest,
    keyof NonNullable<operations['Compare']['requestBody']>['content']['application/json']
  >,
  true satisfies Same<
    keyof CreateCompanyRequest,
    keyof NonNullable<operations['CreateCompany']['requestBody']>['content']['application/json']
  >,
  true satisfies Same<
    keyof UpdateCompanyRequest,
    keyof NonNullable<operations['UpdateCompany']['requestBody']>['content']['application/json']
  >,
  true satisfies Same<
    keyof CreateApiKeyRequest,
    keyof NonNullable<operations['CreateApiKey']['requestBody']>['content']['application/json']
  >,
];

describe('SDK parity with the OpenAPI document', function () {
  this.timeout(60_000);
  const document = openApiDocument() as OpenApiDocument;
  const parameters = parametersOf(document);

  it('gives every operation of the document methods in both SDKs (or says why not)', () => {
    expect(
      Object.keys(parameters).filter((id) => !OPERATIONS[id] && !NOT_IN_SDKS[id]),
      'operations without SDK methods',
    ).to.deep.equal([]);
    expect(
      Object.keys(OPERATIONS).filter((id) => !parameters[id]),
      'methods of operations the document no longer has',
    ).to.deep.equal([]);
    const client = new FinancialInsightsClient({ baseUrl: 'http://localhost:1', apiKey: undefined });
    for (const [id, { typescript }] of Object.entries(OPERATIONS)) {
      for (const dotted of typescript) {
        const method = dotted
          .split('.')
          .reduce<unknown>((target, name) => (target as Record<string, unknown> | undefined)?.[name], client);
        expect(method, `TypeScript ${dotted} (${id})`).to.be.a('function');
      }
    }
    expect(TYPESCRIPT_INPUTS.every(Boolean)).to.equal(true);
  });

  it('takes every query parameter and body field of each operation in the Python SDK, by its REST name', async function () {
    if (!hasPython()) this.skip();
    const signatures = await pythonSignatures(Object.values(OPERATIONS).flatMap((methods) => methods.python));
    for (const [id, { python }] of Object.entries(OPERATIONS)) {
      const taken = new Set(python.flatMap((method) => signatures[method]));
      expect(
        parameters[id].filter((name) => !taken.has(name)),
        `Python ${python.join(', ')} (${id})`,
      ).to.deep.equal([]);
      for (const method of python.filter((m) => !m.endsWith('.pages') && !m.endsWith('.all')))
        expect(signatures[method], method).to.include('timeout');
    }
  });

  it('types the Python SDK\u2019s enumerated parameters with the document\u2019s values', async function () {
    if (!hasPython()) this.skip();
    const script =
      'import json, typing\nfrom fis_sdk import params\nprint(json.dumps({name: list(typing.get_args(getattr(params, name))) for name in dir(params) if not name.startswith("_") and typing.get_origin(getattr(params, name)) is typing.Literal}))';
    const run = await runProgram('python3', ['-c', script], { cwd: PYTHON_SDK, env: { PYTHONDONTWRITEBYTECODE: '1' } });
    expect(run.status, run.stderr).to.equal(0);
    const literals = JSON.parse(run.stdout);
    const schemas = document.components.schemas;
    const statementType = document.paths['/v1/companies/{id}/income-statement'].get.parameters!.find(
      (p) => p.name === 'type',
    )!.schema.enum;
    expect(literals).to.deep.equal({
      PeriodType: statementType,
      SearchMode: schemas.SearchRequest.properties!.mode.enum,
      SummaryType: schemas.SummarizeRequest.properties!.summary_type.enum,
      DocType: schemas.IngestDocumentRequest.properties!.doc_type.enum,
      DocumentFormat: schemas.IngestDocumentRequest.properties!.format.enum,
      Role: schemas.CreateApiKeyRequest.properties!.role.enum,
      CompareMetric: schemas.CompareRequest.properties!.metrics.items!.enum,
    });
  });
});
