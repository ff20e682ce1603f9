import { ApiError, StreamInterruptedError, type ErrorContext } from './errors.js';

/** How a transport's events tell the answer: a token's text, and the final event's data. */
export interface AnswerOf<Event, Done> {
  textOf(event: Event): string | undefined;
  doneOf(event: Event): Done | undefined;
}

/**
 * A chat answer as it streams: iterate it (once) for every event, or `await stream.finalAnswer()` for the last one.
 * It ends with the `done` event or throws: an `error` event is the typed error of its code, and a stream that stops
 * before `done` (a dropped connection, a service that went away) is a StreamInterruptedError carrying what arrived.
 */
export class ChatStream<Event, Done> implements AsyncIterable<Event> {
  private started = false;

  constructor(
    private readonly events: () => AsyncGenerator<Event>,
    private readonly answer: AnswerOf<Event, Done>,
    private readonly context: () => { status: number } & ErrorContext,
    private readonly signal?: AbortSignal,
  ) {}

  async *[Symbol.asyncIterator](): AsyncGenerator<Event> {
    if (this.started) throw new TypeError('A chat stream is read once: iterate it or call finalAnswer(), not both');
    this.started = true;
    const arrived: Event[] = [];
    let text = '';
    let done = false;
    try {
      for await (const event of this.events()) {
        arrived.push(event);
        text += this.answer.textOf(event) ?? '';
        done ||= this.answer.doneOf(event) !== undefined;
        yield event;
      }
    } catch (error) {
      // A connection lost once the answer is whole loses nothing.
      if (done && !(error instanceof ApiError) && !this.signal?.aborted) return;
      // The caller's cancellation, and the service's own errors, are what they are; anything else cut the stream.
      if (this.signal?.aborted || error instanceof ApiError) throw error;
      throw this.interrupted(
        `The chat stream broke off before its done event: ${(error as Error)?.message ?? error}`,
        text,
        arrived,
        error,
      );
    }
    if (!done)
      throw this.interrupted('The chat stream ended before its done event: the answer is incomplete', text, arrived);
  }

  /** Reads the whole stream and returns the final event's data (the whole answer, its citations, the conversation id). */
  async finalAnswer(): Promise<Done> {
    let final: Done | undefined;
    for await (const event of this) final = this.answer.doneOf(event) ?? final;
    return final as Done;
  }

  private interrupted(message: string, text: string, events: Event[], cause?: unknown): StreamInterruptedError<Event> {
    const { status, ...context } = this.context();
    return new StreamInterruptedError(message, status, text, events, context, { cause });
  }
}
