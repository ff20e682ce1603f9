import type { DataSource } from 'typeorm';
import { CAPS } from '../operations/catalog';
import type { Logger } from '../shared/logger';
import { AppError, badUserInput, toAppError } from '../shared/errors';
import type { StatementLoaders } from '../statements/statement.loaders';
import type { SearchBackend } from '../search/ingestion.service';
import { DEFAULT_COMPARE_METRICS } from './analyst';
import type { AnyChatEvent, ChatErrorEvent, ChatInput, Citation, CompareInput, Comparison, ComparisonRow, SummarizeInput, Summary } from './ai.types';
import { ClientGone, generate, generateText, Slots, type GenerationLimits } from './generation';
import { checkGrounding } from './grounding';
import { allFacts, companyFacts, relevantPassages, type CompanyFacts, type DocumentPassage, type FactSheet } from './facts';
import { SUMMARY_TYPES, type ChatTurn, type SummaryType, type Writer } from './writer';
import { findCompanyIdsNamedIn } from '../companies/company.repository';
import { findConversation, findConversationMessages, insertConversation, insertConversationMessages, updateConversation } from './conversation.repository';

/** Input caps: what a request may send to the writer. */
export const { maxMessages: MAX_CHAT_MESSAGES, maxMessageChars: MAX_MESSAGE_CHARS, maxConversationChars: MAX_CONVERSATION_CHARS } = CAPS.chat;
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
export const COMPARE_METRICS = [
  'revenue', 'revenueChange', 'grossProfit', 'operatingIncome', 'operatingIncomeChange', 'netIncome', 'netIncomeChange', 'ebitda', 'epsDiluted',
  'researchAndDevelopment', 'cashAndEquivalents', 'totalAssets', 'totalLiabilities', 'totalEquity', 'totalDebt', 'operatingCashFlow',
  'operatingCashFlowChange', 'capitalExpenditure', 'freeCashFlow', 'freeCashFlowChange', 'dividendsPaid', 'shareRepurchases', 'grossMargin',
  'grossMarginChange', 'operatingMargin', 'operatingMarginChange', 'netMargin', 'netMarginChange', 'returnOnEquity', 'freeCashFlowMargin',
  'currentRatio', 'debtToEquity', 'interestCoverage', 'netDebtToEbitda',
];

const camelCase = (name: string) => name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());

function citations(sheet: FactSheet, text: string, passages: DocumentPassage[]): { citations: Citation[]; grounding: Summary['grounding'] } {
  const facts = allFacts(sheet);
  // Tickers can be all digits ("2330"): they name a company, they are not figures.
  const names = sheet.companies.map((c) => c.company.ticker).concat(passages.map((p) => p.ticker));
  const { report, usedFacts } = checkGrounding(text, facts, passages.map((p) => p.content), names);
  const statementCitations: Citation[] = [...usedFacts].sort((a, b) => a - b).map((index) => {
    const fact = facts[index];
    return {
      kind: 'STATEMENT', companyId: fact.companyId, ticker: fact.ticker, period: fact.period, statement: fact.source, field: fact.field, value: fact.value,
      chunkId: null, documentId: null, title: null,
    };
  });
  const documentCitations: Citation[] = passages.map((p) => ({
    kind: 'DOCUMENT', companyId: p.companyId, ticker: p.ticker, period: p.period, statement: null, field: null, value: null,
    chunkId: p.chunkId, documentId: p.documentId, title: p.title,
  }));
  return { citations: [...statementCitations, ...documentCitations], grounding: report };
}

function periodArgument(period: string | null | undefined): string | null {
  if (period === null || period === undefined) return null;
  if (period.includes('\u0000')) throw badUserInput('period must not contain NUL characters');
  return period.trim() || null;
}

function validCompanyIds(ids: number[], min: number, max: number, field: string): number[] {
  const unique = [...new Set(ids)];
  if (unique.length !== ids.length) throw badUserInput(`${field} must not repeat a company`);
  if (unique.length < min || unique.length > max) throw badUserInput(`${field} must name ${min} to ${max} companies, got ${unique.length}`);
  return unique;
}

/** Chat turns, checked: roles, sizes, and a user question last. */
function validTurns(messages: ChatInput['messages']): ChatTurn[] {
  if (!Array.isArray(messages) || messages.length === 0) throw badUserInput('messages must hold at least one message');
  if (messages.length > MAX_CHAT_MESSAGES) throw badUserInput(`messages may hold at most ${MAX_CHAT_MESSAGES} messages`);
  const turns = messages.map((message, index) => {
    const role = message.role?.trim().toLowerCase();
    if (role !== 'user' && role !== 'assistant') throw badUserInput(`messages[${index}].role must be user or assistant, got "${message.role}"`);
    const content = message.content?.trim() ?? '';
    if (!content) throw badUserInput(`messages[${index}].content must not be empty`);
    if (content.length > MAX_MESSAGE_CHARS) throw badUserInput(`messages[${index}].content must be at most ${MAX_MESSAGE_CHARS} characters`);
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
  return companies.length ? `Writing from the figures of ${companies.join(', ')} and ${passages}` : `Writing from ${passages}`;
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

  async summarize(loaders: StatementLoaders, input: SummarizeInput, signal = new AbortController().signal): Promise<Summary> {
    const summaryType = (input.summaryType?.trim().toLowerCase() || 'overview') as SummaryType;
    if (!SUMMARY_TYPES.includes(summaryType)) {
      throw badUserInput(`summary_type "${input.summaryType}" is not supported; use one of ${SUMMARY_TYPES.join(', ')}`, { accepted: SUMMARY_TYPES });
    }
    const company = await companyFacts(this.dataSource, loaders, input.companyId, periodArgument(input.period));
    const passages = await relevantPassages(this.search, `${company.company.name} ${PASSAGE_QUERIES[summaryType]}`, [company.company.id], PASSAGES_PER_ANALYSIS);
    const sheet: FactSheet = { companies: [company], passages };
    const summary = (await generateText(this.writer, { kind: 'summary', summaryType, sheet }, this.limits, this.slots, signal)).trim();
    return { summary, summaryType, companyId: company.company.id, period: company.period, model: this.writer.model, ...citations(sheet, summary, passages) };
  }

  async compare(loaders: StatementLoaders, input: CompareInput, signal = new AbortController().signal): Promise<Comparison> {
    const companyIds = validCompanyIds(input.companyIds ?? [], CAPS.compare.minCompanies, CAPS.compare.maxCompanies, 'company_ids');
    const metrics = (input.metrics ?? DEFAULT_COMPARE_METRICS).map(camelCase);
    const unknown = metrics.filter((metric) => !COMPARE_METRICS.includes(metric));
    if (unknown.length > 0) throw badUserInput(`Unknown metric ${unknown.map((m) => `"${m}"`).join(', ')}; use any of ${COMPARE_METRICS.join(', ')}`, { accepted: COMPARE_METRICS });
    if (metrics.length === 0 || metrics.length > 20) throw badUserInput('metrics must name 1 to 20 measures');
    const period = periodArgument(input.period);
    const companies: CompanyFacts[] = [];
    for (const id of companyIds) companies.push(await companyFacts(this.dataSource, loaders, id, period));
    const sheet: FactSheet = { companies, passages: [] };
    const comparison = (await generateText(this.writer, { kind: 'comparison', sheet, metrics }, this.limits, this.slots, signal)).trim();
    const table: ComparisonRow[] = metrics.map((metric) => {
      const facts = companies.map((c) => c.current.get(metric));
      const known = facts.find((fact) => fact !== undefined);
      return {
        metric,
        label: known?.label ?? metric,
        unit: known?.unit ?? 'money',
        values: companies.map((c, i) => ({ companyId: c.company.id, ticker: c.company.ticker, period: c.period, currency: c.company.currency, value: facts[i]?.value ?? null })),
      };
    });
    return { comparison, companyIds, period: period ?? 'latest', table, model: this.writer.model, ...citations(sheet, comparison, []) };
  }

  /**
   * A chat answer as events: TOKEN pieces while it is written, then CITATIONS, then DONE with the whole answer and
   * its grounding (or ERROR). The conversation is stored when the answer is complete. Aborting `signal` (the client
   * went away) cancels the writer and the provider request.
   */
  async *chat(loaders: StatementLoaders, input: ChatInput, signal: AbortSignal): AsyncGenerator<AnyChatEvent> {
    let turns: ChatTurn[];
    let sheet: FactSheet;
    let conversation: { id: string | null; history: ChatTurn[]; companyIds: number[] };
    try {
      turns = validTurns(input.messages);
      conversation = await this.loadConversation(input.conversationId ?? null);
      const history = [...conversation.history, ...turns];
      if (history.reduce((sum, turn) => sum + turn.content.length, 0) > MAX_CONVERSATION_CHARS) {
        throw badUserInput(`the conversation is longer than ${MAX_CONVERSATION_CHARS} characters; start a new one`);
      }
      const companyIds = input.companyIds?.length
        ? validCompanyIds(input.companyIds, 1, CAPS.chat.maxCompanies, 'company_ids')
        : conversation.companyIds.length ? conversation.companyIds : await this.companiesNamedIn(turns[turns.length - 1].content);
      sheet = await this.chatFacts(loaders, companyIds, turns[turns.length - 1].content);
      conversation.companyIds = sheet.companies.map((c) => c.company.id);
      turns = history;
    } catch (error) {
      yield this.errorEvent(error);
      return;
    }
    yield { type: 'STATUS', message: writingStatus(sheet) };
    let answer = '';
    try {
      for await (const piece of generate(this.writer, { kind: 'chat', sheet, messages: turns }, this.limits, this.slots, signal)) {
        answer += piece;
        yield { type: 'TOKEN', text: piece };
      }
      answer = answer.trim();
      const cited = citations(sheet, answer, sheet.passages);
      yield { type: 'CITATIONS', citations: cited.citations };
      const conversationId = await this.saveConversation(conversation, turns.slice(conversation.history.length), answer);
      yield { type: 'DONE', answer, citations: cited.citations, grounding: cited.grounding, conversationId, model: this.writer.model };
    } catch (error) {
      if (error instanceof ClientGone) return;
      yield this.errorEvent(error);
    }
  }

  /** An ERROR event; a bug is logged with its detail and reported without it. */
  private errorEvent(error: unknown): ChatErrorEvent {
    const { code, message } = toAppError(error, this.logger, 'chat failed');
    return { type: 'ERROR', code, message };
  }

  /** The facts of the chat's companies for the period the question names (or the newest), and matching passages. */
  private async chatFacts(loaders: StatementLoaders, companyIds: number[], question: string): Promise<FactSheet> {
    const named = /\b(Q[1-4]-\d{4}|FY\d{4})\b/i.exec(question)?.[1] ?? (/\b(annual|year|fiscal)\b/i.test(question) ? 'latest-fy' : 'latest');
    const companies: CompanyFacts[] = [];
    for (const id of companyIds) {
      try {
        companies.push(await companyFacts(this.dataSource, loaders, id, named));
      } catch (error) {
        // A named period the company lacks: fall back to its newest figures rather than failing the chat.
        if (!(error instanceof AppError && error.code === 'NOT_FOUND' && named !== 'latest')) throw error;
        companies.push(await companyFacts(this.dataSource, loaders, id, 'latest'));
      }
    }
    const passages = await relevantPassages(this.search, question.slice(0, 1000), companyIds.length ? companyIds : null, PASSAGES_PER_ANALYSIS);
    return { companies, passages };
  }

  /** Companies a question names by ticker or by name (at most five). */
  private async companiesNamedIn(question: string): Promise<number[]> {
    // Tickers are written in capitals; names by their first word (if distinctive enough, five letters or more).
    const capitals = question.match(/\b[A-Z][A-Z0-9.]{0,9}\b/g) ?? [];
    return findCompanyIdsNamedIn(this.dataSource.manager, capitals, question, 5);
  }

  private async loadConversation(id: string | null): Promise<{ id: string | null; history: ChatTurn[]; companyIds: number[] }> {
    if (id === null) return { id: null, history: [], companyIds: [] };
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw badUserInput('conversation_id must be a UUID');
    const conversation = await findConversation(this.dataSource.manager, id);
    if (!conversation) throw new AppError('NOT_FOUND', `No conversation ${id}`);
    const history = await findConversationMessages(this.dataSource.manager, id);
    return { id, history, companyIds: conversation.companyIds };
  }

  /** Stores the new turns and the answer together; returns the conversation id. */
  private async saveConversation(conversation: { id: string | null; companyIds: number[] }, turns: ChatTurn[], answer: string): Promise<string> {
    return this.dataSource.transaction(async (manager) => {
      const id = conversation.id ?? (await insertConversation(manager, conversation.companyIds));
      if (conversation.id) await updateConversation(manager, id, conversation.companyIds);
      await insertConversationMessages(manager, id, [...turns, { role: 'assistant', content: answer }]);
      return id;
    });
  }
}

