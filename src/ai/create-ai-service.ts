import type { DataSource } from 'typeorm';
import type { AppConfig } from '../config/config';
import type { Logger } from '../shared/logger';
import type { SearchBackend } from '../search/search-backend.types';
import { AiService } from './ai.service';
import { BuiltinAnalyst } from './analyst';
import { LlmWriter } from './llm-writer';
import type { GenerationLimits } from './generation';

/** The AI service with the configured writer: the provider's chat model when OPENAI_API_KEY is set, else the built-in analyst. */
export function createAiService(
  dataSource: DataSource,
  search: SearchBackend,
  config: AppConfig,
  logger: Logger,
  { onOutcome, shutdown }: Pick<GenerationLimits, 'onOutcome' | 'shutdown'> = {},
): AiService {
  const writer = config.openaiApiKey
    ? new LlmWriter({ apiKey: config.openaiApiKey, baseUrl: config.openaiBaseUrl, model: config.llmModel })
    : new BuiltinAnalyst();
  logger.info('AI writer ready', { model: writer.model });
  return new AiService(
    dataSource,
    search,
    writer,
    { timeoutMs: config.llmTimeoutMs, maxConcurrency: config.aiMaxConcurrency, onOutcome, shutdown },
    logger,
  );
}
