import { AppError, badUserInput } from '../shared/errors';
import type { DocumentFormat } from './search.types';

/**
 * What a document is read from: text in a format, or the bytes of a PDF. A document arrives either as `content`
 * (text, with `format`) or as `content_base64` with its `content_type`.
 */
export type DocumentSource =
  { kind: 'text'; content: string; format: DocumentFormat } | { kind: 'pdf'; bytes: Uint8Array };

/** The media types `content_type` accepts (parameters such as `; charset=utf-8` aside) and how each is read. */
export const CONTENT_TYPES: Readonly<Record<string, DocumentFormat | 'PDF'>> = {
  'application/pdf': 'PDF',
  'text/plain': 'TEXT',
  'text/markdown': 'MARKDOWN',
  'text/html': 'HTML',
};

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Decodes standard base64 (line breaks allowed); BAD_USER_INPUT naming content_base64 for anything else. */
export function decodeBase64(value: string): Uint8Array {
  const compact = value.replace(/[\r\n]/g, '');
  if (compact.length === 0) throw badUserInput('content_base64 must not be empty', { field: 'content_base64' });
  if (!BASE64.test(compact))
    throw badUserInput('content_base64 must be standard base64 (A–Z, a–z, 0–9, +, /, = padding)', {
      field: 'content_base64',
    });
  return Buffer.from(compact, 'base64');
}

function mediaType(contentType: string | null | undefined): DocumentFormat | 'PDF' {
  const [type, ...parameters] = (contentType ?? '').split(';').map((part) => part.trim().toLowerCase());
  if (!type)
    throw badUserInput('content_type is required with content_base64, e.g. application/pdf', {
      field: 'content_type',
      accepted: Object.keys(CONTENT_TYPES),
    });
  const read = CONTENT_TYPES[type];
  const charset = parameters
    .find((parameter) => parameter.startsWith('charset='))
    ?.slice('charset='.length)
    .replace(/"/g, '');
  if (!read || (charset && read !== 'PDF' && charset !== 'utf-8' && charset !== 'us-ascii')) {
    throw new AppError(
      'UNSUPPORTED_MEDIA_TYPE',
      `content_type "${contentType}" is not supported; use one of ${Object.keys(CONTENT_TYPES).join(', ')} (text in UTF-8)`,
      {
        field: 'content_type',
        accepted: Object.keys(CONTENT_TYPES),
      },
    );
  }
  return read;
}

/** The input fields that carry a document's content. */
export interface ContentFields {
  content?: string | null;
  format?: DocumentFormat | null;
  contentBase64?: string | null;
  contentType?: string | null;
}

/** Where a document's content comes from; BAD_USER_INPUT naming the field when it is not exactly one of the two ways. */
export function documentSource(input: ContentFields): DocumentSource {
  const hasText = input.content !== null && input.content !== undefined;
  const hasBytes = input.contentBase64 !== null && input.contentBase64 !== undefined;
  if (hasText === hasBytes) {
    throw badUserInput(
      'give the document as exactly one of content (text) or content_base64 (bytes, with content_type)',
      { field: hasText ? 'content_base64' : 'content' },
    );
  }
  if (hasText) {
    if (input.contentType)
      throw badUserInput('content_type goes with content_base64; text in content takes format', {
        field: 'content_type',
      });
    return { kind: 'text', content: input.content as string, format: input.format ?? 'TEXT' };
  }
  const read = mediaType(input.contentType);
  const bytes = decodeBase64(input.contentBase64 as string);
  if (read === 'PDF') return { kind: 'pdf', bytes };
  let content: string;
  try {
    content = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw badUserInput(`content_base64 is not UTF-8 text, as content_type ${input.contentType} says`, {
      field: 'content_base64',
    });
  }
  return { kind: 'text', content, format: read };
}
