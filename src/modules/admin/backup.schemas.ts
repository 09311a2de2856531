import type { Readable } from 'node:stream';
import { Type } from 'typebox';

/** The backup answered as bytes: documented as a string, sent as a stream (never serialised). */
export const BackupArchive = {
  description: 'The backup: a tar file (manifest.json, database/pgdata.tar, files/…)',
  content: {
    'application/x-tar': {
      schema: Type.Unsafe<Readable>({
        type: 'string',
        format: 'binary',
        description: 'The backup archive, to restore with `npm run restore`',
      }),
    },
  },
};
