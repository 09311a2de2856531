import { defineConfig } from 'vite';

// The console is served by the service at /console; `npm run build` writes it to dist/console.
// `npx vite console` runs a dev server that proxies the API and the sockets to a service on :3000.
const api = process.env.CONSOLE_API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  // Vite's own JSX transform, pointed at Preact (no Babel, no plugin).
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    // Sizes are measured by scripts/console-size.mjs on the gzipped files.
    reportCompressedSize: false,
  },
  server: {
    proxy: {
      '/api': api,
      '/ws': { target: api.replace(/^http/, 'ws'), ws: true },
    },
  },
});
