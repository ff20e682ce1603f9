import fs from 'node:fs';
import path from 'node:path';

/** The repository's root, from dist/test/helpers. */
export const ROOT = path.join(__dirname, '..', '..', '..');

/** A Markdown file of the user documentation: its path from the root and its text. */
export interface DocumentationFile {
  file: string;
  text: string;
}

/** README.md and every docs/*.md, README first. */
export function documentationFiles(): DocumentationFile[] {
  const docs = fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => path.join('docs', name));
  return ['README.md', ...docs].map((file) => ({ file, text: fs.readFileSync(path.join(ROOT, file), 'utf8') }));
}

/** The bodies of the fenced code blocks of one language, in every documentation file. */
export function codeBlocks(language: string): string[] {
  return documentationFiles().flatMap(({ text }) =>
    [...text.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((match) => match[1]),
  );
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a Markdown text's headings (outside code blocks). */
export function headingAnchors(text: string): Set<string> {
  const prose = text.replace(/```[\s\S]*?```/g, '');
  return new Set([...prose.matchAll(/^#{1,6} (.+)$/gm)].map((match) => headingAnchor(match[1])));
}

/** The relative links of a Markdown text (outside code blocks): `[text](target)` with no scheme. */
export function relativeLinks(text: string): string[] {
  const prose = text.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1])
    .filter((target) => !/^[a-z][a-z0-9+.-]*:/i.test(target));
}
