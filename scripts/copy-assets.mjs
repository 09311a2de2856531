// Copies what tsc does not emit (SQL migrations, the API explorer's theme) next to the compiled code.
import { cpSync } from 'node:fs';

cpSync('src/core/db/migrations', 'dist/core/db/migrations', { recursive: true });
cpSync('src/core/http/docs-theme', 'dist/core/http/docs-theme', { recursive: true });
