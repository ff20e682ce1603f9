/**
 * The files of a bulk SEC archive (`companyfacts.zip`, `submissions.zip`) or of a folder, one at a time. A zip is read
 * where it lies: its central directory lists the entries, and each entry is inflated into memory only when asked for,
 * so neither the archive nor its unpacked files are ever held whole, nor written to disk.
 */
import fs from 'node:fs';
import path from 'node:path';
import yauzl from 'yauzl';

export interface BulkFile {
  /** The entry's name in the archive, or the file's in the folder. */
  name: string;
  /** Changes when the file's content does (a zip entry's CRC-32 and size; a file's size and modification time). */
  fingerprint: string;
  /** The file's bytes. */
  read(): Promise<Buffer>;
}

export interface BulkSource {
  /** How many files it holds. */
  count: number;
  files(): AsyncGenerator<BulkFile>;
  close(): void;
}

const JSON_FILE = /\.json$/i;

/** Opens a zip archive, or a folder, of JSON files. */
export async function openBulkSource(location: string): Promise<BulkSource> {
  return fs.statSync(location).isDirectory() ? folderSource(location) : zipSource(location);
}

function folderSource(folder: string): BulkSource {
  const names = fs
    .readdirSync(folder)
    .filter((name) => JSON_FILE.test(name))
    .sort();
  return {
    count: names.length,
    async *files() {
      for (const name of names) {
        const file = path.join(folder, name);
        const stat = fs.statSync(file);
        yield { name, fingerprint: `${stat.size}-${Math.round(stat.mtimeMs)}`, read: () => fs.promises.readFile(file) };
      }
    },
    close() {},
  };
}

function openZip(file: string): Promise<yauzl.ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true, autoClose: false }, (error, zip) =>
      error || !zip ? reject(error ?? new Error(`cannot open ${file}`)) : resolve(zip),
    ),
  );
}

function readEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    zip.openReadStream(entry, (error, stream) => {
      if (error || !stream) return reject(error ?? new Error(`cannot read ${entry.fileName}`));
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.once('error', reject);
      stream.once('end', () => resolve(Buffer.concat(chunks)));
    });
  });
}

/** The next entry of a lazily read zip, or null at its end. */
function nextEntry(zip: yauzl.ZipFile): Promise<yauzl.Entry | null> {
  return new Promise((resolve, reject) => {
    const cleanUp = () => {
      zip.removeListener('entry', onEntry);
      zip.removeListener('end', onEnd);
      zip.removeListener('error', onError);
    };
    const onEntry = (entry: yauzl.Entry) => {
      cleanUp();
      resolve(entry);
    };
    const onEnd = () => {
      cleanUp();
      resolve(null);
    };
    const onError = (error: Error) => {
      cleanUp();
      reject(error);
    };
    zip.on('entry', onEntry);
    zip.on('end', onEnd);
    zip.on('error', onError);
    zip.readEntry();
  });
}

async function zipSource(file: string): Promise<BulkSource> {
  const zip = await openZip(file);
  return {
    count: zip.entryCount,
    async *files() {
      for (let entry = await nextEntry(zip); entry; entry = await nextEntry(zip)) {
        const current = entry;
        if (current.fileName.endsWith('/') || !JSON_FILE.test(current.fileName)) continue;
        yield {
          name: path.basename(current.fileName),
          fingerprint: `${current.crc32.toString(16)}-${current.uncompressedSize}`,
          read: () => readEntry(zip, current),
        };
      }
    },
    close: () => zip.close(),
  };
}
