import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { IngestionError } from './errors.js';

/** Every entry of an open zip, from its central directory (nothing is inflated). */
function entriesOf(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/**
 * Refuses a zip (a DOCX) whose entries inflate to more than `maxBytes`:
 * first by the sizes its central directory declares, before anything is
 * inflated, then by inflating each entry as a stream that stops where its
 * declared size ends, so a zip that understates its sizes is caught too.
 * Memory stays at one stream chunk whatever the archive holds.
 * @throws IngestionError naming DECODER_MAX_INFLATED_BYTES, or for a damaged zip.
 */
export async function checkZipInflation(bytes: Buffer, maxBytes: number, what: string): Promise<void> {
  const tooLarge = () =>
    new IngestionError(`The ${what} inflates to more than ${maxBytes} bytes (DECODER_MAX_INFLATED_BYTES)`);
  let zip: ZipFile;
  let entries: Entry[];
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, autoClose: false });
    entries = await entriesOf(zip);
  } catch (error) {
    throw new IngestionError(`The ${what} is not a readable zip archive: ${(error as Error).message}`);
  }
  try {
    const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
    if (declared > maxBytes) throw tooLarge();
    let inflated = 0;
    for (const entry of entries) {
      if (entry.fileName.endsWith('/')) continue;
      let stream: NodeJS.ReadableStream;
      try {
        // yauzl ends the stream with an error once it yields more than the entry declares.
        stream = await zip.openReadStreamPromise(entry);
        for await (const chunk of stream) {
          inflated += (chunk as Buffer).length;
          if (inflated > maxBytes) throw tooLarge();
        }
      } catch (error) {
        if (error instanceof IngestionError) throw error;
        throw new IngestionError(
          `The ${what} cannot be read: its entry ${entry.fileName} is damaged or larger than it declares (${(error as Error).message})`,
        );
      }
    }
  } finally {
    zip.close();
  }
}
