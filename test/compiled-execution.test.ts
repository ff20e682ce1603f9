/**
 * Repeated queries run compiled (graphql-jit), the rest on graphql-js; either way a client gets the same answer.
 * Through the HTTP server: every document below is sent three times (the first run is interpreted, the later ones
 * compiled) and the three answers must be identical, errors included. In process: which operations are compiled,
 * and that variable errors are graphql-js's own.
 */
import { expect } from 'chai';
import {
  GraphQLObjectType,
  GraphQLScalarType,
  GraphQLSchema,
  GraphQLString,
  execute,
  parse,
  type ExecutionResult,
} from 'graphql';
import { graphql } from './helpers/http';
import { app } from './helpers/shared-app';
import { buildAppSchema } from '../src/graphql/schema';
import { createRequestContext } from '../src/graphql/context';
import { CompiledExecution } from '../src/graphql/compiled-execution';

/** Documents with what a compiled run must get right: variables and their defaults, enums, fragments, aliases, directives, errors. */
const CASES: Array<{ name: string; query: string; variables?: Record<string, unknown>; status: number }> = [
  {
    name: 'variables with defaults, an enum, fragments, aliases and @include/@skip',
    query: `query Page($limit: Int = 3, $type: PeriodType = ANNUAL, $withCash: Boolean!, $last: Int) {
      companies(limit: $limit, sector: null) {
        __typename total
        items { ...Identity history: statements(type: $type, last: $last) { period type periodEnd
          incomeStatement { revenue netIncome epsDiluted }
          cashFlow @include(if: $withCash) { freeCashFlow }
          balanceSheet @skip(if: $withCash) { totalAssets } } }
      }
    }
    fragment Identity on Company { id ticker name }`,
    variables: { withCash: true, last: 2 },
    status: 200,
  },
  {
    name: 'the same document, other variables',
    query:
      'query Q($type: PeriodType!) { companies(limit: 2) { items { statements(type: $type, last: 1) { period } } } }',
    variables: { type: 'QUARTER' },
    status: 200,
  },
  // A non-null field's error nulls its parents up to data: no data, so the error's own status.
  {
    name: 'a resolver error deep in a list, nulling data',
    query: '{ companies(limit: 2) { items { ticker statements(last: 999) { period } } } }',
    status: 400,
  },
  // A nullable root field's error leaves data present ({ company: null }): GraphQL over HTTP requires 2xx.
  { name: 'a domain error at a nullable root field', query: '{ company(id: 1, ticker: "AAPL") { id } }', status: 200 },
  {
    name: 'nothing found',
    query: 'query C($id: Int) { company(id: $id) { id name } }',
    variables: { id: 999_999 },
    status: 200,
  },
  {
    name: 'a variable of the wrong type',
    query: 'query P($limit: Int!) { companies(limit: $limit) { total } }',
    variables: { limit: 'three' },
    status: 400,
  },
  {
    name: 'a required variable left out',
    query: 'query P($limit: Int!) { companies(limit: $limit) { total } }',
    variables: {},
    status: 400,
  },
  {
    name: 'an enum variable that is not a value',
    query: 'query Q($type: PeriodType!) { companies(limit: 1) { items { statements(type: $type) { period } } } }',
    variables: { type: 'WEEK' },
    status: 400,
  },
];

describe('compiled execution of repeated queries (graphql-jit)', () => {
  for (const { name, query, variables, status } of CASES) {
    it(`answers the same on the first and on later runs: ${name}`, async () => {
      const answers = [];
      for (let run = 0; run < 3; run += 1) answers.push(await graphql(query, variables));
      expect(answers[0].status).to.equal(status);
      expect(answers[1]).to.deep.equal(answers[0]);
      expect(answers[2]).to.deep.equal(answers[0]);
    });
  }

  describe('in process', () => {
    const schema = buildAppSchema();
    const contextValue = () =>
      createRequestContext({ dataSource: app().database.dataSource, publicReads: true } as never);
    // graphql-js builds result objects without a prototype, graphql-jit as plain objects: which one ran shows in the data.
    const ranCompiled = (result: ExecutionResult) => Object.getPrototypeOf(result.data) !== null;

    it('compiles a query on its second run, and gives what graphql-js gives', async () => {
      const execution = new CompiledExecution(schema);
      const document = parse(
        'query H($n: Int!) { companies(limit: $n) { items { id ticker statements(type: ANNUAL, last: 2) { period incomeStatement { revenue } } } } }',
      );
      const args = { document, variableValues: { n: 4 }, contextValue: contextValue() };
      const first = await execution.execute(args);
      const second = await execution.execute({ ...args, contextValue: contextValue() });
      expect([ranCompiled(first), ranCompiled(second)]).to.deep.equal([false, true]);
      expect(JSON.stringify(second)).to.equal(JSON.stringify(first));
      expect(JSON.stringify(second)).to.equal(
        JSON.stringify(await execute({ ...args, schema, contextValue: contextValue() })),
      );
    });

    it("refuses bad variables of a compiled query with graphql-js's own errors", async () => {
      const execution = new CompiledExecution(schema);
      const document = parse(
        'query P($limit: Int!, $type: PeriodType!) { companies(limit: $limit) { items { statements(type: $type) { period } } } }',
      );
      const good = { document, variableValues: { limit: 1, type: 'ANNUAL' } };
      await execution.execute({ ...good, contextValue: contextValue() });
      expect(ranCompiled(await execution.execute({ ...good, contextValue: contextValue() }))).to.equal(true);
      const bad = { document, variableValues: { limit: 1.5, type: 'annual' } };
      const compiled = await execution.execute({ ...bad, contextValue: contextValue() });
      const reference = await execute({ ...bad, schema, contextValue: contextValue() });
      expect(compiled.errors?.length).to.equal(2);
      expect(JSON.stringify(compiled)).to.equal(JSON.stringify(reference));
    });

    it('leaves mutations, and variables of a type whose coerced value would coerce again differently, to graphql-js', async () => {
      // A scalar whose parsed value is no longer valid input: coercing it twice would fail.
      const Stamp = new GraphQLScalarType({
        name: 'Stamp',
        parseValue: (value) => {
          if (typeof value !== 'string') throw new TypeError('Stamp takes a string');
          return new Date(value);
        },
      });
      const year = {
        type: GraphQLString,
        args: { at: { type: Stamp } },
        resolve: (_root: unknown, { at }: { at?: Date }) => String(at?.getUTCFullYear() ?? 0),
      };
      const stamps = new GraphQLSchema({
        query: new GraphQLObjectType({
          name: 'Query',
          fields: { year, plainYear: { type: GraphQLString, resolve: () => '2024' } },
        }),
        mutation: new GraphQLObjectType({ name: 'Mutation', fields: { year } }),
      });
      const execution = new CompiledExecution(stamps);
      const documents = {
        interpreted: [parse('query Y($at: Stamp) { year(at: $at) }'), parse('mutation M { year }')],
        compiled: [parse('query P { plainYear }')],
      };
      for (const [expected, list] of Object.entries(documents)) {
        for (const document of list) {
          const runs: ExecutionResult[] = [];
          for (let run = 0; run < 3; run += 1)
            runs.push(await execution.execute({ document, variableValues: { at: '2024-06-30T00:00:00Z' } }));
          expect(runs.map((result) => result.errors)).to.deep.equal([undefined, undefined, undefined]);
          expect(runs.map(ranCompiled), `${expected}: ${document.loc?.source.body}`).to.deep.equal([
            false,
            expected === 'compiled',
            expected === 'compiled',
          ]);
        }
      }
    });
  });
});
