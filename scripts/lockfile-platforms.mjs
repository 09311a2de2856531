// Keeps `npm ci` working where the registry serves only this machine's
// platform builds: npm then leaves the other platforms' optional packages
// (biome's and msgpackr-extract's binaries) out of package-lock.json, and
// `npm ci` refuses a lockfile that misses them. This adds those entries back
// with their os/cpu/libc, so npm skips them on a non-matching platform, the
// way a lockfile made against the full registry would.
// Usage: node scripts/lockfile-platforms.mjs [package-lock.json]
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2] ?? 'package-lock.json';
const lock = JSON.parse(readFileSync(file, 'utf8'));
const pkgs = lock.packages;
const platform = (name) => {
  const m =
    /(android|darwin|linux|win32|freebsd|openbsd|sunos|aix|netbsd)-(arm64|x64|arm|ia32|ppc64|s390x|riscv64|loong64|mips64el)(-musl)?/.exec(
      name,
    );
  return m ? { os: [m[1]], cpu: [m[2]], ...(m[3] ? { libc: ['musl'] } : {}) } : null;
};
let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (pkgs[base] || pkgs[hoisted]) continue;
    const p = platform(dep);
    if (!p) continue;
    pkgs[hoisted] = {
      version: range.replace(/^[\^~]/, ''),
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...p,
    };
    added++;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
if (added > 0) console.log(`lockfile: added ${added} optional platform entries`);
