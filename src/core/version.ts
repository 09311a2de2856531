import { readFileSync } from 'node:fs';

/** The package version; src/core and dist/core both sit two levels below package.json. */
export const VERSION: string = JSON.parse(
  readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
).version;
