// Writes dist/core/db/pglite-template.tar.gz: an empty embedded database as
// PGlite's initdb leaves it, dumped. The first start of the service loads it
// into DATA_DIR (src/core/db/client.ts) instead of running initdb itself,
// which takes about 9 of the first start's seconds on a two-core machine;
// loading takes under 2. Made by `npm run build` with the PGlite the lockfile
// installs, so the template always matches the engine that loads it; without
// it (a build from before this step) the start runs initdb as before.
import { mkdirSync, writeFileSync } from 'node:fs';
import { PGlite } from '@electric-sql/pglite';

const TEMPLATE = 'dist/core/db/pglite-template.tar.gz';

// In memory: nothing but the dump is written.
const pglite = await PGlite.create();
const dump = await pglite.dumpDataDir('gzip');
await pglite.close();
mkdirSync('dist/core/db', { recursive: true });
writeFileSync(TEMPLATE, Buffer.from(await dump.arrayBuffer()));
