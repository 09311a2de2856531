// Starts a TypeScript entry of the isolated runner when the service runs from
// its sources (vitest, `npm run dev`): tsx's loader is registered in this
// child process, then the entry named by the first argument is imported.
// Built code starts its .js entry directly and never comes here.
import { register } from 'tsx/esm/api';

register();
await import(process.argv[2]);
