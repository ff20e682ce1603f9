import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { GraphQLError } from 'graphql';
import { AppError, toAppError } from '../src/shared/errors';
import { appErrorOf } from '../src/graphql/graphql-errors';
import { formatSseEvent } from '../src/shared/sse';
import { readSseEvents } from './helpers/sse-events';
import { RestInput } from '../rest-facade/rest-input';
import { ROUTES } from '../rest-facade/routes';
import type { Logger } from '../src/shared/logger';

function recordingLogger(): Logger & { errors: string[] } {
  const errors: string[] = [];
  const ignore = () => undefined;
  return {
    level: 'info',
    errors,
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (message) => void errors.push(message),
  };
}

describe('Error translation (unit)', () => {
  it('passes an AppError as it is, also wrapped by graphql-js', () => {
    const logger = recordingLogger();
    const error = new AppError('NOT_FOUND', 'No company with id 7');
    expect(toAppError(error, logger)).to.equal(error);
    expect(
      appErrorOf(new GraphQLError('No company with id 7', { originalError: error, path: ['company'] }), logger),
    ).to.equal(error);
    expect(logger.errors).to.deep.equal([]);
  });

  it('makes a NUL character refused by the database a 400, not a bug', () => {
    const logger = recordingLogger();
    const fromDriver = Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
      driverError: { code: '22021' },
    });
    expect(toAppError(fromDriver, logger)).to.deep.include({ code: 'BAD_USER_INPUT', status: 400 });
    expect(
      appErrorOf(new GraphQLError('wrapped', { originalError: fromDriver, path: ['search'] }), logger).code,
    ).to.equal('BAD_USER_INPUT');
    expect(logger.errors).to.deep.equal([]);
  });

  it('logs anything else as a bug and says nothing of it', () => {
    const logger = recordingLogger();
    const bug = toAppError(
      new TypeError('cannot read properties of undefined (reading "rows")'),
      logger,
      'chat failed',
    );
    expect(bug).to.deep.include({ code: 'INTERNAL_SERVER_ERROR', status: 500 });
    expect(bug.message).to.not.include('rows');
    expect(logger.errors).to.deep.equal(['chat failed']);
  });

  it('reads graphql-js errors raised before any resolver ran as the caller\u2019s input; known codes pass', () => {
    const logger = recordingLogger();
    const coercion = new GraphQLError(
      'Variable "$mode" got invalid value "FUZZY"; Value "FUZZY" does not exist in "SearchMode" enum.',
    );
    expect(appErrorOf(coercion, logger).code).to.equal('BAD_USER_INPUT');
    const validation = new GraphQLError('Cannot query field "x"', {
      extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
    });
    expect(appErrorOf(validation, logger).code).to.equal('GRAPHQL_VALIDATION_FAILED');
    const resolverBug = new GraphQLError('boom', { originalError: new Error('boom'), path: ['company'] });
    expect(appErrorOf(resolverBug, logger).code).to.equal('INTERNAL_SERVER_ERROR');
    expect(logger.errors).to.have.length(1);
  });

  it('refuses REST input in REST\u2019s words: the field as sent, what it takes, what it got', () => {
    const inputOf = (path: string) => new RestInput(ROUTES.find((route) => route.path === path)!);
    const failure = (read: () => unknown) => {
      try {
        read();
      } catch (error) {
        return { message: (error as AppError).message, details: (error as AppError).details };
      }
      throw new Error('no error');
    };
    const chat = inputOf('/v1/ai/chat');
    const none = new URLSearchParams();
    expect(failure(() => chat.read({}, none, { messages: [{ role: 'user', content: 7 }] })).message).to.equal(
      'messages[0].content must be a string, got 7',
    );
    expect(
      failure(() => chat.read({}, none, { messages: [{ role: 'user', content: 'x', tone: 1 }] })).message,
    ).to.equal('messages[0] has unknown field "tone": accepted are role, content');
    expect(failure(() => chat.read({}, none, { messages: [], stream: true })).message).to.equal(
      'messages must not be empty',
    );
    expect(
      failure(() => chat.read({}, none, { messages: [{ role: 'user', content: 'x' }], company_ids: [1, 'two'] }))
        .message,
    ).to.equal('company_ids must be an array of integers, got [1,"two"]');
    expect(
      failure(() => chat.read({}, none, { messages: [{ role: 'user', content: 'x' }], company_ids: [2 ** 31] }))
        .message,
    ).to.match(/^company_ids\[0\] must be an integer/);
    expect(chat.read({}, none, { messages: [{ role: 'USER', content: 'x' }] })).to.deep.equal({
      messages: [{ role: 'user', content: 'x' }],
    });

    const ratios = inputOf('/v1/companies/:id/ratios');
    expect(
      ratios.read({ id: '3' }, new URLSearchParams('limit=4&type=ANNUAL&period=&provenance=1'), undefined),
    ).to.deep.equal({ id: 3, limit: 4, type: 'annual', provenance: true });
    expect(failure(() => ratios.read({ id: '0' }, none, undefined))).to.deep.equal({
      message: 'id must be a positive integer, got "0"',
      details: { field: 'id' },
    });
    expect(failure(() => ratios.read({ id: '3' }, new URLSearchParams('limit=41'), undefined)).message).to.equal(
      'limit must be a whole number from 1 to 40, got 41',
    );
    expect(failure(() => ratios.read({ id: '3' }, new URLSearchParams('limit=x'), undefined)).message).to.equal(
      'limit must be an integer, got "x"',
    );
    expect(failure(() => ratios.read({ id: '3' }, new URLSearchParams('type=weekly'), undefined))).to.deep.equal({
      message: 'type must be one of annual, quarter, got "weekly"',
      details: { field: 'type', accepted: ['annual', 'quarter'] },
    });
    expect(failure(() => ratios.read({ id: '3' }, new URLSearchParams('limit=1&limit=2'), undefined)).message).to.equal(
      'Query parameter "limit" is given more than once',
    );
    expect(failure(() => inputOf('/v1/admin/keys').read({}, new URLSearchParams('x=1'), undefined)).message).to.equal(
      'Unknown query parameter "x": this endpoint takes none',
    );
  });

  it('no module outside the GraphQL adapter makes or reads graphql-js errors', () => {
    const root = path.join(__dirname, '..', '..');
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts') && /\bGraphQLError\b|\blocatedError\b/.test(fs.readFileSync(full, 'utf8')))
          offenders.push(path.relative(root, full));
      }
    };
    for (const dir of ['src', 'rest-facade']) walk(path.join(root, dir));
    expect(offenders.filter((file) => !file.startsWith(`src${path.sep}graphql${path.sep}`))).to.deep.equal([]);
  });
});

describe('Server-Sent Events (unit)', () => {
  it('writes events that eventsource-parser reads back, however the stream is cut into pieces', async () => {
    const wire = formatSseEvent('token', { text: 'Net income\nrose' }) + formatSseEvent('done', { answer: 'ok' });
    for (let size = 1; size <= wire.length; size += 1) {
      const bytes = new TextEncoder().encode(wire);
      const pieces = async function* () {
        for (let at = 0; at < bytes.length; at += size) yield bytes.slice(at, at + size);
      };
      const events = [];
      for await (const event of readSseEvents(pieces())) events.push(event);
      expect(events, `pieces of ${size}`).to.deep.equal([
        { event: 'token', data: { text: 'Net income\nrose' } },
        { event: 'done', data: { answer: 'ok' } },
      ]);
    }
  });
});
