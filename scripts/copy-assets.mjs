// Copies what tsc does not emit (SQL migrations) next to the compiled code.
import { cpSync } from 'node:fs';

cpSync('src/core/db/migrations', 'dist/core/db/migrations', { recursive: true });
