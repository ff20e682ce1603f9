/**
 * Writes small PDFs for tests: one page per entry, each a list of lines set in Helvetica from the top of the page
 * down. Enough of the format for a PDF reader to find its pages and text; nothing is downloaded or kept as a fixture.
 */

export interface PdfOptions {
  /**
   * Adds a standard security handler whose user password is not empty (its check values are arbitrary bytes), as an
   * encrypted report is: a reader cannot open it without the password.
   */
  encrypted?: boolean;
}

/** A line of text: `[x, text]` places it at x points from the left edge, a plain string at the margin. */
export type PdfLine = string | Array<[x: number, text: string]>;

const escape = (text: string) => text.replace(/[\\()]/g, (c) => `\\${c}`);

function pageContent(lines: PdfLine[]): string {
  const shown = lines.map((line, i) => {
    const y = 760 - i * 16;
    const pieces: Array<[number, string]> = typeof line === 'string' ? [[72, line]] : line;
    return pieces.map(([x, text]) => `BT /F1 11 Tf ${x} ${y} Td (${escape(text)}) Tj ET`).join('\n');
  });
  return shown.join('\n');
}

/** A PDF of `pages`, each a list of lines. */
export function makePdf(pages: PdfLine[][], options: PdfOptions = {}): Buffer {
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 4 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  pages.forEach((lines, i) => {
    const content = pageContent(lines);
    objects[pageIds[i]] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageIds[i] + 1} 0 R >>`;
    objects[pageIds[i] + 1] = `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}\nendstream`;
  });
  const encryptId = objects.length;
  if (options.encrypted) {
    const check = (seed: number) =>
      Array.from({ length: 32 }, (_, i) => ((i * 37 + seed) % 256).toString(16).padStart(2, '0')).join('');
    objects[encryptId] = `<< /Filter /Standard /V 1 /R 2 /O <${check(11)}> /U <${check(91)}> /P -4 >>`;
  }

  let body = '%PDF-1.4\n%\u00e2\u00e3\u00cf\u00d3\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id += 1) {
    offsets[id] = Buffer.byteLength(body, 'latin1');
    body += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id += 1) body += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  const fileId = '<0123456789abcdef0123456789abcdef>';
  const encrypt = options.encrypted ? ` /Encrypt ${encryptId} 0 R` : '';
  body += `trailer\n<< /Size ${objects.length} /Root 1 0 R /ID [${fileId} ${fileId}]${encrypt} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}
