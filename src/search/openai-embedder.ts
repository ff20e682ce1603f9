import { OpenAIEmbeddings } from '@langchain/openai';
import { AppError } from '../shared/errors';
import { normalize, type Embedder } from './embedder';

export interface OpenAIEmbedderOptions {
  apiKey: string;
  /** An OpenAI-compatible server (Ollama, vLLM, LM Studio…); the OpenAI API when omitted. */
  baseUrl?: string | null;
  model: string;
  /** Known size of the model's vectors; probed with one call when omitted. */
  dimensions?: number | null;
  timeoutMs: number;
}

/** Embeddings from an OpenAI-compatible endpoint through LangChain, with a timeout and two retries. */
export class OpenAIEmbedder implements Embedder {
  private readonly client: OpenAIEmbeddings;
  private readonly endpoint: string;
  private readonly name: string;
  private size: number | null;

  constructor(options: OpenAIEmbedderOptions) {
    this.name = options.model;
    this.endpoint = options.baseUrl ? new URL(options.baseUrl).host : 'api.openai.com';
    this.size = options.dimensions ?? null;
    this.client = new OpenAIEmbeddings({
      apiKey: options.apiKey,
      model: options.model,
      // Models that can shorten their vectors (text-embedding-3-*) are asked for the configured size.
      ...(options.dimensions ? { dimensions: options.dimensions } : {}),
      timeout: options.timeoutMs,
      maxRetries: 2,
      batchSize: 256,
      configuration: options.baseUrl ? { baseURL: options.baseUrl } : undefined,
    });
  }

  /**
   * Stored with every vector. The endpoint and the size are part of it: two servers may serve different models under
   * one name, and vectors of different spaces or sizes must never be compared.
   */
  get model(): string {
    return `openai:${this.endpoint}/${this.name}@${this.dimensions}`;
  }

  get dimensions(): number {
    if (this.size === null) throw new Error('OpenAIEmbedder.dimensions read before init()');
    return this.size;
  }

  /** Learns the vector size from the provider when it was not configured. */
  async init(): Promise<void> {
    if (this.size === null) this.size = (await this.embedQuery('dimension probe')).length;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    if (texts.length === 0) return [];
    const vectors = await this.call(() => this.client.embedDocuments(texts));
    return vectors.map((vector) => this.check(vector));
  }

  async embedQuery(text: string): Promise<number[]> {
    return this.check(await this.call(() => this.client.embedQuery(text)));
  }

  private check(vector: number[]): number[] {
    if (!Array.isArray(vector) || vector.length === 0 || (this.size !== null && vector.length !== this.size)) {
      throw new AppError(
        'UPSTREAM_ERROR',
        `The embedding provider returned a vector of ${vector?.length ?? 0} dimensions, expected ${this.size}`,
      );
    }
    return normalize(vector);
  }

  private async call<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof AppError) throw error;
      const message = (error as Error).message ?? String(error);
      const timedOut = /timed? ?out|timeout|ETIMEDOUT|aborted/i.test(message);
      throw new AppError(timedOut ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_ERROR', `The embedding provider failed: ${message}`);
    }
  }
}
