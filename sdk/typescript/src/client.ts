import { ApiError, errorFor, type ErrorContext } from './errors.js';
import { ChatStream } from './chat-stream.js';
import { CHAT_SUBSCRIPTION, type ChatSubscription } from './generated/graphql-chat.js';
import { readEvents } from './sse.js';
import { Transport, type ClientOptions, type RequestOptions } from './transport.js';
import { routePath, type BodyOf, type DataOf, type Many, type One, type QueryOf, type RouteWith } from './routes.js';
import type {
  ApiKey,
  BalanceSheet,
  CashFlow,
  ChatDoneEvent,
  ChatEvent,
  ChatRequest,
  Company,
  CompanyProfile,
  CompareRequest,
  Comparison,
  CreateApiKeyRequest,
  CreateCompanyRequest,
  CreatedApiKey,
  DataQualityCheck,
  Document,
  IncomeStatement,
  IngestDocumentRequest,
  IngestedDocument,
  ListCompaniesQuery,
  Page,
  ScreenQuery,
  ScreenRow,
  PageMeta,
  Period,
  PeriodsQuery,
  RatioDefinition,
  Ratios,
  RatiosHistoryQuery,
  RatiosQuery,
  SearchRequest,
  SearchResult,
  StatementHistoryQuery,
  StatementQuery,
  SummarizeRequest,
  Summary,
  Token,
  UpdateCompanyRequest,
} from './types.js';

/** An event of a name this SDK does not know yet (a newer service): passed on as it came, never dropped or fatal. */
export interface UnknownChatEvent {
  event: 'unknown';
  /** The event's name in the stream. */
  name: string;
  data: unknown;
}
/** A chat event as the stream yields it: an `error` event is thrown as a typed error instead. */
export type ChatStreamEvent = Exclude<ChatEvent, { event: 'error' }> | UnknownChatEvent;
/** A chat event of the GraphQL subscription (camelCase fields, told apart by `__typename`); errors are thrown. */
export type GraphQLChatEvent = Exclude<ChatSubscription['chat'], { __typename: 'ChatErrorEvent' }>;
/** The last event of the GraphQL subscription: the whole answer. */
export type GraphQLChatDoneEvent = Extract<GraphQLChatEvent, { __typename: 'ChatDoneEvent' }>;

const CHAT_EVENT_NAMES: ReadonlySet<string> = new Set(['status', 'token', 'citations', 'done'] satisfies Array<
  Exclude<ChatStreamEvent, UnknownChatEvent>['event']
>);

/** What an answer arrived with, once its response is in: for the errors of the stream. */
type StreamContext = { status: number } & ErrorContext;

/**
 * The client of the financial insights service.
 *
 * ```ts
 * const client = new FinancialInsightsClient({ baseUrl: 'http://localhost:8080', apiKey: process.env.FIS_API_KEY });
 * const apple = await client.companies.byTicker('AAPL');
 * const income = await client.statements.income(apple.id, { period: 'FY2024' });
 * for await (const event of client.ai.chat({ messages: [{ role: 'user', content: 'How is Apple doing?' }] })) {
 *   if (event.event === 'token') process.stdout.write(event.data.text);
 * }
 * ```
 */
export class FinancialInsightsClient {
  private readonly transport: Transport;

  /** Options left out are read from the environment where there is one: FIS_BASE_URL, FIS_API_KEY. */
  constructor(options: ClientOptions = {}) {
    this.transport = new Transport(options);
  }

  /** A client like this one with other options (e.g. `{ accessToken }` after `auth.token()`). */
  withOptions(options: Partial<ClientOptions>): FinancialInsightsClient {
    return new FinancialInsightsClient({ ...this.transport.options, ...options });
  }

  /** GET a route: its `data`, typed by the document. */
  private async read<P extends RouteWith<'get'>>(
    route: P,
    id: number | undefined,
    query: QueryOf<P> | undefined,
    options: RequestOptions,
  ): Promise<DataOf<P, 'get'>> {
    return (
      await this.transport.json<DataOf<P, 'get'>>({
        method: 'GET',
        path: routePath(route, id),
        query: query as Record<string, string>,
        ...options,
      })
    ).data;
  }

  /** GET one period of a route that also answers several; `type` or `limit` would ask for several. */
  private async readOne<P extends RouteWith<'get'>>(
    route: P,
    id: number,
    query: QueryOf<P>,
    options: RequestOptions,
  ): Promise<One<DataOf<P, 'get'>>> {
    return (await this.read(route, id, query, options)) as One<DataOf<P, 'get'>>;
  }

  /** GET the last periods of such a route, newest first: `type` defaults to quarter, so the service answers an array. */
  private async readMany<P extends RouteWith<'get'>>(
    route: P,
    id: number,
    query: QueryOf<P> & { type?: string; limit?: number },
    options: RequestOptions,
  ): Promise<Many<DataOf<P, 'get'>>> {
    return (await this.read(
      route,
      id,
      query.type || query.limit ? query : { ...query, type: 'quarter' },
      options,
    )) as Many<DataOf<P, 'get'>>;
  }

  /** POST a body to a route: its `data`, typed by the document. */
  private async write<P extends RouteWith<'post'>>(
    route: P,
    body: BodyOf<P>,
    options: RequestOptions,
    idempotent = false,
  ): Promise<DataOf<P, 'post'>> {
    return (
      await this.transport.json<DataOf<P, 'post'>>({
        method: 'POST',
        path: routePath(route),
        body,
        idempotent,
        ...options,
      })
    ).data;
  }

  /** DELETE a route's resource: its `data`, typed by the document. */
  private async remove<P extends RouteWith<'delete'>>(
    route: P,
    id: number,
    options: RequestOptions,
  ): Promise<DataOf<P, 'delete'>> {
    return (
      await this.transport.json<DataOf<P, 'delete'>>({ method: 'DELETE', path: routePath(route, id), ...options })
    ).data;
  }

  readonly companies = {
    /** One page of companies, ordered by name (`limit` up to the service's cap, `offset`, `sector` in any case). */
    list: async (query: ListCompaniesQuery = {}, options: RequestOptions = {}): Promise<Page<Company>> => {
      const { data, meta } = await this.transport.json<DataOf<'/v1/companies', 'get'>>({
        method: 'GET',
        path: '/v1/companies',
        query,
        ...options,
      });
      return { data, meta: meta as PageMeta };
    },
    /** Companies that pass a screen (conditions on statement fields and ratios of a period), sorted, one page with the total. */
    screen: async (query: ScreenQuery = {}, options: RequestOptions = {}): Promise<Page<ScreenRow>> => {
      const { data, meta } = await this.transport.json<DataOf<'/v1/screener', 'get'>>({
        method: 'GET',
        path: '/v1/screener',
        query: query as Record<string, string>,
        ...options,
      });
      return { data, meta: meta as PageMeta };
    },
    /** Every page, one after the other, from `offset` on (stops at the end of the list). */
    pages: (query: ListCompaniesQuery = {}, options: RequestOptions = {}): AsyncGenerator<Page<Company>> =>
      this.pagesOf(query, options),
    /** Every company across all pages. */
    all: (query: ListCompaniesQuery = {}, options: RequestOptions = {}): AsyncGenerator<Company> =>
      this.companiesOf(query, options),
    /** A company's profile. */
    get: (id: number, options: RequestOptions = {}): Promise<CompanyProfile> =>
      this.read('/v1/companies/{id}', id, undefined, options),
    /** A company's profile by its ticker (any case); NotFoundError when no company has it. */
    byTicker: async (ticker: string, options: RequestOptions = {}): Promise<CompanyProfile> => {
      const [match] = (await this.companies.list({ ticker: ticker.trim(), limit: 1 }, options)).data;
      if (!match) throw errorFor('NOT_FOUND', `No company with ticker ${ticker}`, 404);
      return this.companies.get(match.id, options);
    },
    /** The periods a company has data for, newest first. */
    periods: (id: number, query: PeriodsQuery = {}, options: RequestOptions = {}): Promise<Period[]> =>
      this.read('/v1/companies/{id}/periods', id, query, options),
    /** Data-quality checks over all of a company's statements. */
    dataQuality: (id: number, options: RequestOptions = {}): Promise<DataQualityCheck[]> =>
      this.read('/v1/companies/{id}/data-quality', id, undefined, options),
    /** Starts tracking a company (admin): its profile; ConflictError when its ticker or CIK is another company's. */
    create: (request: CreateCompanyRequest, options: RequestOptions = {}): Promise<CompanyProfile> =>
      this.write('/v1/companies', request, options),
    /** Changes the given fields of a company (admin); the others keep their value. */
    update: async (id: number, changes: UpdateCompanyRequest, options: RequestOptions = {}): Promise<CompanyProfile> =>
      (
        await this.transport.json<DataOf<'/v1/companies/{id}', 'patch'>>({
          method: 'PATCH',
          path: routePath('/v1/companies/{id}', id),
          body: changes,
          ...options,
        })
      ).data,
  };

  readonly statements = {
    /** The income statement of a period (`FY2024`, `Q3-2024`, `latest`, `latest-fy`, `ttm`; default the newest quarter). */
    income: (id: number, query: StatementQuery = {}, options: RequestOptions = {}): Promise<IncomeStatement> =>
      this.readOne('/v1/companies/{id}/income-statement', id, query, options),
    balanceSheet: (id: number, query: StatementQuery = {}, options: RequestOptions = {}): Promise<BalanceSheet> =>
      this.readOne('/v1/companies/{id}/balance-sheet', id, query, options),
    cashFlow: (id: number, query: StatementQuery = {}, options: RequestOptions = {}): Promise<CashFlow> =>
      this.readOne('/v1/companies/{id}/cash-flow', id, query, options),
    /** The ratios of a period, computed from the statements. */
    ratios: (id: number, query: RatiosQuery = {}, options: RequestOptions = {}): Promise<Ratios> =>
      this.readOne('/v1/companies/{id}/ratios', id, query, options),
    /** The income statements of the last periods, newest first (`type` quarter (default) or annual, `limit` periods). */
    incomeHistory: (
      id: number,
      query: StatementHistoryQuery = {},
      options: RequestOptions = {},
    ): Promise<IncomeStatement[]> => this.readMany('/v1/companies/{id}/income-statement', id, query, options),
    balanceSheetHistory: (
      id: number,
      query: StatementHistoryQuery = {},
      options: RequestOptions = {},
    ): Promise<BalanceSheet[]> => this.readMany('/v1/companies/{id}/balance-sheet', id, query, options),
    cashFlowHistory: (
      id: number,
      query: StatementHistoryQuery = {},
      options: RequestOptions = {},
    ): Promise<CashFlow[]> => this.readMany('/v1/companies/{id}/cash-flow', id, query, options),
    ratiosHistory: (id: number, query: RatiosHistoryQuery = {}, options: RequestOptions = {}): Promise<Ratios[]> =>
      this.readMany('/v1/companies/{id}/ratios', id, query, options),
    /** Every ratio with its formula. */
    ratioDefinitions: (options: RequestOptions = {}): Promise<RatioDefinition[]> =>
      this.read('/v1/ratios/definitions', undefined, undefined, options),
  };

  /**
   * A GraphQL query at /graphql, for a page that wants several reads in one request: its `data`, typed by the caller
   * (with the `Schema` types). The first GraphQL error is thrown as a typed error. Queries only, so it may be retried.
   */
  async graphql<TData>(
    query: string,
    variables: Record<string, unknown> = {},
    options: RequestOptions = {},
  ): Promise<TData> {
    const response = await this.transport.send({
      method: 'POST',
      path: '/graphql',
      body: { query, variables },
      idempotent: true,
      ...options,
    });
    const body = (await response.json().catch(() => null)) as {
      data?: TData | null;
      errors?: Array<{ message: string; extensions?: { code?: string } }>;
    } | null;
    const [first] = body?.errors ?? [];
    if (first) throw errorFor(first.extensions?.code ?? 'INVALID_RESPONSE', first.message, response.status);
    if (!body?.data) throw new ApiError('POST /graphql answered without data', 'INVALID_RESPONSE', response.status);
    return body.data;
  }

  /** Hybrid search over company documents. */
  search(request: SearchRequest, options: RequestOptions = {}): Promise<SearchResult[]> {
    // A search reads: safe to send again after a gateway failure.
    return this.write('/v1/search', request, options, true);
  }

  readonly documents = {
    /** A stored document with its passages in reading order (analyst); a search result's `chunk_id` is one of them. */
    get: (id: number, options: RequestOptions = {}): Promise<Document> =>
      this.read('/v1/documents/{id}', id, undefined, options),
    /**
     * Stores and indexes a document (admin); `created` is false when the same text was already stored. Text goes in
     * `content`; a PDF in `content_base64` (`Buffer.from(bytes).toString('base64')`) with `content_type: 'application/pdf'`.
     */
    ingest: (request: IngestDocumentRequest, options: RequestOptions = {}): Promise<IngestedDocument> =>
      this.write('/v1/documents', request, options),
  };

  readonly ai = {
    summarize: (request: SummarizeRequest, options: RequestOptions = {}): Promise<Summary> =>
      this.write('/v1/ai/summarize', request, options),
    compare: (request: CompareRequest, options: RequestOptions = {}): Promise<Comparison> =>
      this.write('/v1/ai/compare', request, options),
    /**
     * A chat answer as it is written (REST, Server-Sent Events): `status`, `token`s, `citations`, then `done` with the
     * whole answer and the conversation id to continue; `await stream.finalAnswer()` waits for that last one. An
     * `error` event is thrown as the typed error of its code, a stream cut before `done` as a StreamInterruptedError
     * with what arrived. Breaking out of the loop (or aborting the signal) hangs up, and the service stops writing.
     */
    chat: (
      request: Omit<ChatRequest, 'stream'>,
      options: RequestOptions = {},
    ): ChatStream<ChatStreamEvent, ChatDoneEvent> => {
      const context: StreamContext = { status: 0 };
      return new ChatStream(
        () => this.chatEvents(request, options, context),
        {
          textOf: (event) => (event.event === 'token' ? event.data.text : undefined),
          doneOf: (event) => (event.event === 'done' ? event.data : undefined),
        },
        () => context,
        options.signal,
      );
    },
    /** A chat answer in one piece (the `done` event's data). */
    ask: (request: Omit<ChatRequest, 'stream'>, options: RequestOptions = {}): Promise<ChatDoneEvent> =>
      this.write('/v1/ai/chat', { ...request, stream: false }, options),
    /**
     * The same answer through the GraphQL subscription at /graphql/stream (graphql-sse): events told apart by
     * `__typename`, ending with ChatDoneEvent or throwing, as `chat` does (a ChatErrorEvent is thrown as the typed
     * error of its code).
     */
    chatGraphql: (
      input: { messages: ChatRequest['messages']; companyIds?: number[]; conversationId?: string },
      options: RequestOptions = {},
    ): ChatStream<GraphQLChatEvent, GraphQLChatDoneEvent> => {
      const context: StreamContext = { status: 0 };
      return new ChatStream(
        () => this.graphqlChatEvents(input, options, context),
        {
          textOf: (event) => (event.__typename === 'ChatTokenEvent' ? event.text : undefined),
          doneOf: (event) => (event.__typename === 'ChatDoneEvent' ? event : undefined),
        },
        () => context,
        options.signal,
      );
    },
  };

  readonly auth = {
    /**
     * OAuth 2.0 client credentials: the client's API key (or `clientSecret`) exchanged for a short-lived bearer token
     * (the endpoint answers OAuth's own shape, not the envelope; its errors become the same typed errors).
     */
    token: async (clientSecret?: string, options: RequestOptions = {}): Promise<Token> => {
      const body: BodyOf<'/v1/auth/token'> = {
        grant_type: 'client_credentials',
        ...(clientSecret ? { client_secret: clientSecret } : {}),
      };
      return this.transport.plain<Token>({ method: 'POST', path: routePath('/v1/auth/token'), body, ...options });
    },
  };

  /** API keys (the admin role): list, create (the key is in that answer only), revoke. */
  readonly admin = {
    keys: {
      list: (options: RequestOptions = {}): Promise<ApiKey[]> =>
        this.read('/v1/admin/keys', undefined, undefined, options),
      create: (request: CreateApiKeyRequest, options: RequestOptions = {}): Promise<CreatedApiKey> =>
        this.write('/v1/admin/keys', request, options),
      /** Revokes a key: every instance refuses it within a second. */
      revoke: (id: number, options: RequestOptions = {}): Promise<ApiKey> =>
        this.remove('/v1/admin/keys/{id}', id, options),
    },
  };

  private async *pagesOf(query: ListCompaniesQuery, options: RequestOptions): AsyncGenerator<Page<Company>> {
    let offset = query.offset ?? 0;
    for (;;) {
      const page = await this.companies.list({ ...query, offset }, options);
      if (page.data.length === 0) return;
      yield page;
      offset = page.meta.offset + page.data.length;
      if (offset >= page.meta.total) return;
    }
  }

  private async *companiesOf(query: ListCompaniesQuery, options: RequestOptions): AsyncGenerator<Company> {
    for await (const page of this.pagesOf(query, options)) yield* page.data;
  }

  /** Opens an event stream and notes what its response came with, for the errors of the stream. */
  private async openStream(
    body: unknown,
    path: string,
    options: RequestOptions,
    context: StreamContext,
  ): Promise<ReadableStream<Uint8Array>> {
    const response = await this.transport.send({ method: 'POST', path, body, stream: true, ...options });
    Object.assign(context, { status: response.status, ...this.transport.contextOf(response) });
    if (!response.body)
      throw new ApiError(
        `POST ${path} answered ${response.status} without a body`,
        'INVALID_RESPONSE',
        response.status,
      );
    return response.body;
  }

  private async *chatEvents(
    request: Omit<ChatRequest, 'stream'>,
    options: RequestOptions,
    context: StreamContext,
  ): AsyncGenerator<ChatStreamEvent> {
    const body = await this.openStream(
      { ...request, stream: true } satisfies BodyOf<'/v1/ai/chat'>,
      routePath('/v1/ai/chat'),
      options,
      context,
    );
    for await (const { event, data } of readEvents(body, options.signal)) {
      if (event === 'error') {
        const error = data as { code: string; message: string };
        throw errorFor(error.code, error.message, context.status, undefined, undefined, context);
      }
      yield CHAT_EVENT_NAMES.has(event)
        ? ({ event, data } as ChatStreamEvent)
        : { event: 'unknown', name: event, data };
    }
  }

  private async *graphqlChatEvents(
    input: Parameters<FinancialInsightsClient['ai']['chatGraphql']>[0],
    options: RequestOptions,
    context: StreamContext,
  ): AsyncGenerator<GraphQLChatEvent> {
    const body = await this.openStream(
      { query: CHAT_SUBSCRIPTION, operationName: 'Chat', variables: { input } },
      '/graphql/stream',
      options,
      context,
    );
    for await (const { event, data } of readEvents(body, options.signal)) {
      if (event === 'complete') return;
      if (event !== 'next') continue;
      const result = data as {
        data?: ChatSubscription | null;
        errors?: Array<{ message: string; extensions?: { code?: string } }>;
      };
      const [error] = result.errors ?? [];
      if (error)
        throw errorFor(
          error.extensions?.code ?? 'INTERNAL_SERVER_ERROR',
          error.message,
          context.status,
          undefined,
          undefined,
          context,
        );
      const chat = result.data?.chat;
      if (chat?.__typename === 'ChatErrorEvent')
        throw errorFor(chat.code, chat.message, context.status, undefined, undefined, context);
      if (chat) yield chat;
    }
  }
}
