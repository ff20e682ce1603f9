import type { DataSource } from 'typeorm';
import { CAPS } from '../operations/catalog';
import { snakeCase } from '../shared/case';
import type { Logger } from '../shared/logger';
import { AppError, badUserInput, toAppError } from '../shared/errors';
import type { StatementLoaders } from '../statements/statement.loaders';
import type { SearchBackend } from '../search/search-backend.types';
import { BUILTIN_ANALYST_MODEL, DEFAULT_COMPARE_METRICS } from './analyst';
import type {
  AnyChatEvent,
  ChatErrorEvent,
  ChatInput,
  Citation,
  CompareInput,
  Comparison,
  ComparisonRow,
  SummarizeInput,
  Summary,
} from './ai.types';
import { ClientGone, generate, generateText, Slots, type GenerationLimits } from './generation';
import { checkAskedFigure, checkClaims, checkGrounding, type ClaimReader } from './grounding';
import { RELATED_FIGURE } from './question/figure-answer';
import type { DocumentFigureFact } from './statement-fact';
import { findCompanies } from '../understanding/companies';
import { findMetrics } from '../understanding/metrics';
import {
  allFacts,
  companyFacts,
  relevantPassages,
  statementSourceKey,
  statementValueKey,
  type CompanyFacts,
  type DocumentPassage,
  type FactSheet,
} from './facts';
import { askedFacts } from './question/asked-facts';
import { definedAnswer } from './question/defined-answer';
import { screenAnswer } from './question/screen-answer';
import { yearsSpanned } from '../understanding/defined-metric';
import { findDocumentFacts, findStatementDocumentSources } from '../documents/document-facts.repository';
import { findCompany } from '../companies/company.service';
import type { Company } from '../companies/company.entity';
import { fiscalYearFilter, passageFilter, passageQuery } from './question/question-context';
import { companyDirectory } from '../companies/company-directory';
import { parseConversation, type ParsedQuestion } from './question/question';
import { SUMMARY_TYPES, type ChatTurn, type SummaryType, type ToolRunner, type Writer } from './writer';
import { ServiceTools } from './agent/service-tools';
import { ANONYMOUS } from '../auth/roles';
import type { AccessContext } from '../auth/access';
import {
  findConversation,
  findConversationMessages,
  insertConversation,
  insertConversationMessages,
  updateConversation,
} from './conversation.repository';

/** Input caps: what a request may send to the writer. */
export const {
  maxMessages: MAX_CHAT_MESSAGES,
  maxMessageChars: MAX_MESSAGE_CHARS,
  maxConversationChars: MAX_CONVERSATION_CHARS,
} = CAPS.chat;
const PASSAGES_PER_ANALYSIS = 4;

/** Search queries that find the passages each summary type needs. */
const PASSAGE_QUERIES: Record<SummaryType, string> = {
  overview: 'business overview results outlook strategy risks',
  profitability: 'margins profitability pricing costs operating expenses',
  balance_sheet: 'debt liquidity capital resources borrowings credit facility',
  cash_flow: 'cash flow capital expenditures dividends share repurchases',
  risks: 'risk factors could adversely affect uncertainty competition regulation',
};

/** Measures that compare accepts (camelCase, as in GraphQL; REST also takes snake_case). */
export const COMPARE_METRICS: readonly string[] = CAPS.compare.metrics;

/** Who asks for an analysis: the role check's view of the request, and the request's id (for log lines). */
export type AiCaller = AccessContext & { requestId?: string };

/** Work not done for a request (no caller): the agent's tools then refuse what needs a role. */
const NO_CALLER: AiCaller = { principal: ANONYMOUS, publicReads: false };

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

/** Adds to a sheet where its statement values read from stored documents were read (to cite their pages). */
async function addStatementDocuments(dataSource: DataSource, sheet: FactSheet): Promise<FactSheet> {
  const companyIds = sheet.companies.map((c) => c.company.id);
  if (companyIds.length === 0) return sheet;
  const sources = await findStatementDocumentSources(dataSource.manager, companyIds);
  if (sources.length === 0) return sheet;
  const byKey = new Map(
    sources.map((source) => [
      statementValueKey(source.companyId, source.statement, source.period, source.field),
      source,
    ]),
  );
  return { ...sheet, statementDocuments: byKey };
}

function citations(
  sheet: FactSheet,
  text: string,
  passages: DocumentPassage[],
): { citations: Citation[]; grounding: Summary['grounding']; claims: Summary['claims'] } {
  const facts = allFacts(sheet);
  // Tickers can be all digits ("2330"): they name a company, they are not figures.
  const names = [
    ...new Set([
      ...sheet.companies.map((c) => c.company.ticker),
      ...passages.map((p) => p.ticker),
      ...facts.map((f) => f.ticker),
    ]),
  ].filter(Boolean);
  const { report: numbers, usedFacts } = checkGrounding(
    text,
    facts,
    passages.map((p) => p.content),
    names,
  );
  const directory = sheet.companies.map((c) => ({ id: c.company.id, ticker: c.company.ticker, name: c.company.name }));
  const reader: ClaimReader = {
    companies: (sentence) =>
      findCompanies(sentence, directory).map((m) => ({ companyId: m.company.id, ticker: m.company.ticker })),
    metrics: (words) => findMetrics(words).map((m) => m.key),
  };
  const claims = checkClaims(text, facts, passages, reader, names);
  if (sheet.figures) checkAskedFigure(claims, facts, sheet.figures.ask.qualifier, RELATED_FIGURE);
  const flagged = claims.filter((c) => c.verdict !== 'SUPPORTED').length;
  const report = {
    ...numbers,
    claimsChecked: claims.length,
    claimsSupported: claims.length - flagged,
    claimsFlagged: flagged,
  };
  const statementCitations: Citation[] = [...usedFacts]
    // The question's own figures are restated, not sourced.
    .filter((index) => facts[index].source !== 'question')
    .sort((a, b) => a - b)
    .map((index) => {
      const fact = facts[index];
      if (fact.source === 'document') {
        const figure = fact as DocumentFigureFact;
        return {
          kind: 'DOCUMENT',
          companyId: fact.companyId,
          ticker: fact.ticker,
          period: fact.period,
          statement: null,
          field: fact.field,
          value: fact.value,
          chunkId: figure.chunkId,
          documentId: figure.documentId,
          title: figure.title,
          page: figure.page,
        };
      }
      // A statement value read from a stored filing cites that filing's page too.
      const read = sheet.statementDocuments?.get(
        statementSourceKey(fact.companyId, fact.source, fact.period, fact.field),
      );
      return {
        kind: 'STATEMENT',
        companyId: fact.companyId,
        ticker: fact.ticker,
        period: fact.period,
        statement: fact.source,
        field: fact.field,
        value: fact.value,
        chunkId: null,
        documentId: read?.documentId ?? null,
        title: read?.title ?? null,
        page: read?.page ?? null,
      };
    });
  const documentCitations: Citation[] = passages.map((p) => ({
    kind: 'DOCUMENT',
    companyId: p.companyId,
    ticker: p.ticker,
    period: p.period,
    statement: null,
    field: null,
    value: null,
    chunkId: p.chunkId,
    documentId: p.documentId,
    title: p.title,
    page: p.page,
  }));
  return {
    citations: [...statementCitations, ...documentCitations],
    grounding: report,
    claims: claims.map(({ text: written, verdict, ticker, period, metric, chunkId }) => ({
      text: written,
      verdict,
      ticker,
      period,
      metric,
      chunkId,
    })),
  };
}

/**
 * A language model's answer with claims the check could not vouch for ends with a plain note saying so (the claims
 * themselves are listed in `claims`); the built-in analyst writes only checked facts, so it needs none.
 */
function unverifiedNote(writer: Writer, grounding: Summary['grounding']): string | null {
  if (writer.model === BUILTIN_ANALYST_MODEL || grounding.claimsFlagged === 0) return null;
  const count = grounding.claimsFlagged;
  return `(Note: ${count === 1 ? 'one figure' : `${count} figures`} in this answer could not be verified against the stored statements or the cited passages; see the claims.)`;
}

function periodArgument(period: string | null | undefined): string | null {
  if (period === null || period === undefined) return null;
  if (period.includes('\u0000')) throw badUserInput('period must not contain NUL characters');
  return period.trim() || null;
}

function validCompanyIds(ids: number[], min: number, max: number, field: string): number[] {
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) throw badUserInput(`${field} must not repeat a company`);
  if (unique.length < min || unique.length > max)
    throw badUserInput(`${field} must name ${min} to ${max} companies, got ${unique.length}`);
  return unique;
}

/** Chat turns, checked: roles, sizes, and a user question last. */
function validTurns(messages: ChatInput['messages']): ChatTurn[] {
  if (!Array.isArray(messages) || messages.length === 0) throw badUserInput('messages must hold at least one message');
  if (messages.length > MAX_CHAT_MESSAGES)
    throw badUserInput(`messages may hold at most ${MAX_CHAT_MESSAGES} messages`);
  const turns = messages.map((message, index) => {
    const role = message.role?.trim().toLowerCase();
    if (role !== 'user' && role !== 'assistant')
      throw badUserInput(`messages[${index}].role must be user or assistant, got "${message.role}"`);
    const content = message.content?.trim() ?? '';
    if (!content) throw badUserInput(`messages[${index}].content must not be empty`);
    if (content.length > MAX_MESSAGE_CHARS)
      throw badUserInput(`messages[${index}].content must be at most ${MAX_MESSAGE_CHARS} characters`);
    if (content.includes('\u0000')) throw badUserInput(`messages[${index}].content must not contain NUL characters`);
    return { role, content } as ChatTurn;
  });
  if (turns[turns.length - 1].role !== 'user') throw badUserInput('the last message must be the user\u2019s question');
  return turns;
}

/** What a chat answer is written from, said before the first token (a slot may take a moment to free up). */
function writingStatus(sheet: FactSheet): string {
  const companies = sheet.companies.map((c) => `${c.company.ticker} (${c.period})`);
  const passages = `${sheet.passages.length} document passage${sheet.passages.length === 1 ? '' : 's'}`;
  return companies.length
    ? `Writing from the figures of ${companies.join(', ')} and ${passages}`
    : `Writing from ${passages}`;
}

/** Summaries, comparisons and chat: facts first, then a writer, then the grounding check. */
export class AiService {
  private readonly slots: Slots;

  constructor(
    private readonly dataSource: DataSource,
    private readonly search: SearchBackend,
    private readonly writer: Writer,
    private readonly limits: GenerationLimits,
    private readonly logger: Logger,
  ) {
    this.slots = new Slots(limits.maxConcurrency);
  }

  get model(): string {
    return this.writer.model;
  }

  async summarize(
    loaders: StatementLoaders,
    input: SummarizeInput,
    signal = new AbortController().signal,
    caller: AiCaller = NO_CALLER,
  ): Promise<Summary> {
    const summaryType = (input.summaryType?.trim().toLowerCase() || 'overview') as SummaryType;
    if (!SUMMARY_TYPES.includes(summaryType)) {
      throw badUserInput(
        `summary_type "${input.summaryType}" is not supported; use one of ${SUMMARY_TYPES.join(', ')}`,
        { field: 'summary_type', accepted: SUMMARY_TYPES },
      );
    }
    const company = await companyFacts(this.dataSource, loaders, input.companyId, periodArgument(input.period));
    // A summary of a named period quotes that fiscal year's filings only (not a newer year's).
    const named = periodArgument(input.period);
    const keep = named && !named.toLowerCase().startsWith('latest') ? fiscalYearFilter(company.period) : undefined;
    const passages = await relevantPassages(
      this.search,
      `${company.company.name} ${PASSAGE_QUERIES[summaryType]}`,
      [company.company.id],
      PASSAGES_PER_ANALYSIS,
      keep,
    );
    const sheet = await addStatementDocuments(this.dataSource, { companies: [company], passages });
    const summary = (
      await generateText(
        this.writer,
        { kind: 'summary', summaryType, sheet, tools: this.tools(loaders, sheet, caller) },
        this.limits,
        this.slots,
        { signal, requestId: caller.requestId },
      )
    ).trim();
    const cited = citations(sheet, summary, passages);
    const note = unverifiedNote(this.writer, cited.grounding);
    return {
      summary: note ? `${summary} ${note}` : summary,
      summaryType,
      companyId: company.company.id,
      period: company.period,
      model: this.writer.model,
      ...cited,
    };
  }

  async compare(
    loaders: StatementLoaders,
    input: CompareInput,
    signal = new AbortController().signal,
    caller: AiCaller = NO_CALLER,
  ): Promise<Comparison> {
    const companyIds = validCompanyIds(
      input.companyIds ?? [],
      CAPS.compare.minCompanies,
      CAPS.compare.maxCompanies,
      'company_ids',
    );
    const asked = input.metrics ?? DEFAULT_COMPARE_METRICS;
    const metrics = asked.map(camelCase);
    const unknown = asked.filter((_, index) => !COMPARE_METRICS.includes(metrics[index]));
    if (unknown.length > 0) {
      // Named in snake_case, which both transports accept (REST speaks nothing else).
      const accepted = COMPARE_METRICS.map(snakeCase);
      throw badUserInput(
        `Unknown metric ${unknown.map((m) => `"${m}"`).join(', ')} in metrics; use any of ${accepted.join(', ')}`,
        { field: 'metrics', accepted },
      );
    }
    if (metrics.length === 0 || metrics.length > CAPS.compare.maxMetrics)
      throw badUserInput(`metrics must name 1 to ${CAPS.compare.maxMetrics} measures`);
    const period = periodArgument(input.period);
    const companies: CompanyFacts[] = [];
    for (const id of companyIds) companies.push(await companyFacts(this.dataSource, loaders, id, period));
    const sheet = await addStatementDocuments(this.dataSource, { companies, passages: [] });
    const comparison = (
      await generateText(
        this.writer,
        { kind: 'comparison', sheet, metrics, tools: this.tools(loaders, sheet, caller) },
        this.limits,
        this.slots,
        { signal, requestId: caller.requestId },
      )
    ).trim();
    const table: ComparisonRow[] = metrics.map((metric) => {
      const facts = companies.map((c) => c.current.get(metric));
      const known = facts.find((fact) => fact !== undefined);
      return {
        metric,
        label: known?.label ?? metric,
        unit: known?.unit ?? 'money',
        values: companies.map((c, i) => ({
          companyId: c.company.id,
          ticker: c.company.ticker,
          period: c.period,
          currency: c.company.currency,
          value: facts[i]?.value ?? null,
        })),
      };
    });
    const cited = citations(sheet, comparison, sheet.passages);
    const note = unverifiedNote(this.writer, cited.grounding);
    return {
      comparison: note ? `${comparison} ${note}` : comparison,
      companyIds,
      period: period ?? 'latest',
      table,
      model: this.writer.model,
      ...cited,
    };
  }

  /**
   * A chat answer as events: TOKEN pieces while it is written, then CITATIONS, then DONE with the whole answer and
   * its grounding (or ERROR). The conversation is stored when the answer is complete. Aborting `signal` (the client
   * went away) cancels the writer and the provider request.
   */
  async *chat(
    loaders: StatementLoaders,
    input: ChatInput,
    signal: AbortSignal,
    ownerKeyId: number | null = null,
    caller: AiCaller = NO_CALLER,
  ): AsyncGenerator<AnyChatEvent> {
    let turns: ChatTurn[];
    let sheet: FactSheet;
    let conversation: { id: string | null; history: ChatTurn[]; companyIds: number[]; ownerKeyId: number | null };
    try {
      turns = validTurns(input.messages);
      conversation = await this.loadConversation(input.conversationId ?? null, ownerKeyId);
      const history = [...conversation.history, ...turns];
      if (history.reduce((sum, turn) => sum + turn.content.length, 0) > MAX_CONVERSATION_CHARS) {
        throw badUserInput(`the conversation is longer than ${MAX_CONVERSATION_CHARS} characters; start a new one`);
      }
      const directory = await companyDirectory(this.dataSource);
      const userTurns = history.filter((turn) => turn.role === 'user').map((turn) => turn.content);
      let reading = parseConversation(userTurns, directory) as ParsedQuestion;
      const refs = (ids: number[]) =>
        ids.map((id) => directory.find((c) => c.id === id) ?? { id, ticker: '', name: '' });
      if (input.companyIds?.length) {
        reading = {
          ...reading,
          companies: refs(validCompanyIds(input.companyIds, 1, CAPS.chat.maxCompanies, 'company_ids')),
          unknownCompany: null,
        };
      } else if (reading.companies.length === 0 && conversation.companyIds.length > 0 && !reading.unknownCompany) {
        reading = { ...reading, companies: refs(conversation.companyIds) };
      }
      sheet = await addStatementDocuments(this.dataSource, await this.chatFacts(loaders, reading));
      conversation.companyIds = sheet.companies.map((c) => c.company.id);
      turns = history;
    } catch (error) {
      yield this.errorEvent(error, caller.requestId);
      return;
    }
    yield { type: 'STATUS', message: writingStatus(sheet) };
    let answer = '';
    try {
      for await (const piece of generate(
        this.writer,
        { kind: 'chat', sheet, messages: turns, tools: this.tools(loaders, sheet, caller) },
        this.limits,
        this.slots,
        { signal, requestId: caller.requestId },
      )) {
        if (typeof piece !== 'string') {
          yield { type: 'STATUS', message: piece.status };
          continue;
        }
        answer += piece;
        yield { type: 'TOKEN', text: piece };
      }
      answer = answer.trim();
      const cited = citations(sheet, answer, sheet.passages);
      const note = unverifiedNote(this.writer, cited.grounding);
      if (note) {
        yield { type: 'TOKEN', text: ` ${note}` };
        answer = `${answer} ${note}`;
      }
      yield { type: 'CITATIONS', citations: cited.citations };
      const conversationId = await this.saveConversation(
        conversation,
        turns.slice(conversation.history.length),
        answer,
      );
      yield {
        type: 'DONE',
        answer,
        citations: cited.citations,
        grounding: cited.grounding,
        claims: cited.claims,
        conversationId,
        model: this.writer.model,
      };
    } catch (error) {
      if (error instanceof ClientGone) return;
      yield this.errorEvent(error, caller.requestId);
    }
  }

  /** The service's operations as tools of this request (its loaders), adding what they return to the sheet. */
  private tools(loaders: StatementLoaders, sheet: FactSheet, caller: AccessContext): ToolRunner {
    return new ServiceTools(this.dataSource, this.search, loaders, sheet, caller);
  }

  /** An ERROR event; a bug is logged with its detail and reported without it. */
  private errorEvent(error: unknown, requestId: string | undefined): ChatErrorEvent {
    const { code, message } = toAppError(error, this.logger, 'chat failed', requestId);
    return { type: 'ERROR', code, message };
  }

  /**
   * The facts a chat question asks for: each named company's statements for the period it names (or its newest),
   * the exact values asked (company × period × metric, nothing substituted), and passages of those companies' documents,
   * of the period and document type the question names.
   */
  private async chatFacts(loaders: StatementLoaders, reading: ParsedQuestion): Promise<FactSheet> {
    const companyIds = reading.companies.map((c) => c.id);
    const single =
      reading.period?.kind === 'exact' && reading.period.periods.length === 1 ? reading.period.periods[0] : null;
    const named =
      single?.label ??
      (reading.period?.kind === 'latest' && reading.period.type === 'QUARTER' ? 'latest' : 'latest-fy');
    const companies: CompanyFacts[] = [];
    const known: Company[] = [];
    for (const id of companyIds) {
      // A company without statements (only documents, or nothing yet) is answered, not refused: the answer says so.
      const facts = await this.storedFacts(loaders, id, named);
      if (facts) companies.push(facts);
      const company = facts?.company ?? (await findCompany(this.dataSource, id));
      if (!company) throw new AppError('NOT_FOUND', `No company with id ${id}`);
      known.push(company);
    }
    if (reading.screen) {
      const screened = await screenAnswer(this.dataSource, loaders, reading.screen, reading.period);
      return { companies, passages: [], asked: null, screened };
    }
    if (reading.defined && known.length > 0) {
      // An average over years names its own years; another measure is of the period asked, else the newest stored.
      const spanned = yearsSpanned(reading.defined.expression);
      const period =
        spanned.length > 0 ? `FY${spanned[spanned.length - 1]}` : (single?.label ?? companies[0]?.period ?? null);
      const defined = period
        ? await definedAnswer(loaders, known[0], reading.defined, period, reading.text)
        : { text: `${known[0].ticker} has no stored statements to compute ${reading.defined.name} from.`, facts: [] };
      return { companies, passages: [], asked: null, defined };
    }
    if (reading.definitionGap) {
      const { metric, defined, computed } = reading.definitionGap;
      const whose = known.map((company) => `${company.ticker}\u2019s`).join(' and ');
      const notComputed =
        `${whose} ${metric.label} for ${single?.label ?? 'the period asked'} as the question defines it is not available: ` +
        `the question defines it as \u201c${defined}\u201d, and the service computes ${metric.label} as ${computed}, another figure.`;
      return { companies, passages: [], asked: null, notComputed };
    }
    if (reading.figure) {
      const documentFacts = await findDocumentFacts(
        this.dataSource.manager,
        known.map((c) => c.id),
      );
      const figures = {
        ask: reading.figure,
        period: single?.label ?? null,
        companies: known.map((company) => ({
          company,
          facts: documentFacts.filter((f) => f.companyId === company.id),
        })),
      };
      return { companies, passages: [], asked: null, figures };
    }
    const asked = await askedFacts(loaders, known, reading);
    // Drivers and risks are quoted from the passages: they get more of them to choose from.
    const documents = reading.intent === 'drivers' || reading.intent === 'risks';
    const passages = await relevantPassages(
      this.search,
      passageQuery(reading),
      companyIds.length ? companyIds : null,
      documents ? 2 * PASSAGES_PER_ANALYSIS : PASSAGES_PER_ANALYSIS,
      passageFilter(reading),
    );
    return { companies, passages, asked };
  }

  /**
   * A company's statement facts for the period named, else its newest quarter, else its newest fiscal year (a company
   * that files annual reports only has no quarter); null when it has none and the question needs none (a figure the
   * documents hold).
   */
  /** The company's figures for a period, else its newest (labelled as such); null when it has no statements. */
  private async storedFacts(loaders: StatementLoaders, companyId: number, named: string): Promise<CompanyFacts | null> {
    for (const period of new Set([named, 'latest', 'latest-fy'])) {
      try {
        return await companyFacts(this.dataSource, loaders, companyId, period);
      } catch (error) {
        // The period is not stored: the answer says so first (from `asked`); these are the newest figures, labelled as such.
        if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
        if (/^No company/.test(error.message)) return null;
      }
    }
    return null;
  }

  /** A stored conversation of the caller's key; another key's conversation is as unknown as a missing one (404). */
  private async loadConversation(
    id: string | null,
    ownerKeyId: number | null,
  ): Promise<{ id: string | null; history: ChatTurn[]; companyIds: number[]; ownerKeyId: number | null }> {
    if (id === null) return { id: null, history: [], companyIds: [], ownerKeyId };
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id))
      throw badUserInput('conversation_id must be a UUID');
    const conversation = await findConversation(this.dataSource.manager, id, ownerKeyId);
    if (!conversation) throw new AppError('NOT_FOUND', `No conversation ${id}`);
    const history = await findConversationMessages(this.dataSource.manager, id);
    return { id, history, companyIds: conversation.companyIds, ownerKeyId };
  }

  /** Stores the new turns and the answer together; returns the conversation id. */
  private async saveConversation(
    conversation: { id: string | null; companyIds: number[]; ownerKeyId: number | null },
    turns: ChatTurn[],
    answer: string,
  ): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const id =
        conversation.id ?? (await insertConversation(manager, conversation.companyIds, conversation.ownerKeyId));
      if (conversation.id) await updateConversation(manager, id, conversation.companyIds);
      await insertConversationMessages(manager, id, [...turns, { role: 'assistant', content: answer }]);
      return id;
    });
  }
}
