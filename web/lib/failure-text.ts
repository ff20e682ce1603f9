/** A refusal or failure in words: the service's message, its code, and when to try again (unless the message says). */
export function failureText(failure: {
  message: string;
  code: string | number;
  retryAfterSeconds?: number | null;
}): string {
  const wait =
    failure.retryAfterSeconds && !/retry/i.test(failure.message) ? ` Try again in ${failure.retryAfterSeconds} s.` : '';
  return `${failure.message} (${failure.code})${wait}`;
}
