// Keeps `npm ci` working where the registry serves only this machine's
// platform builds: npm then leaves the other platforms' optional packages
// (biome's and msgpackr-extract's binaries) out of package-lock.json, and
// `npm ci` refuses a lockfile that misses them. This adds those entries back
// with their os/cpu/libc, so npm skips them on a non-matching platform, the
// way a lockfile made against the full registry would.
//
// The file is written exactly as `npm install` would write it (entry keys in
// npm's order, packages sorted the way npm sorts them), so running this and
// then `npm install` leaves the lockfile unchanged and a fresh clone stays
// clean after its first `npm install`.
//
// Usage: node scripts/lockfile-platforms.mjs [--check] [package-lock.json]
//   --check  change nothing; exit 1 when entries are missing or out of order.
import { readFileSync, writeFileSync } from 'node:fs';

const args = process.argv.slice(2);
const check = args.includes('--check');
const file = args.find((arg) => arg !== '--check') ?? 'package-lock.json';
const before = readFileSync(file, 'utf8');
const lock = JSON.parse(before);
const pkgs = lock.packages;

const platform = (name) => {
  const m =
    /(android|darwin|linux|win32|freebsd|openbsd|sunos|aix|netbsd)-(arm64|x64|arm|ia32|ppc64|s390x|riscv64|loong64|mips64el)(-musl)?/.exec(
      name,
    );
  return m ? { os: [m[1]], cpu: [m[2]], ...(m[3] ? { libc: ['musl'] } : {}) } : null;
};

// npm writes an entry that it only knows from the lockfile (no integrity, no
// license: the registry here never served it) as `version`, then the other
// keys in alphabetical order: cpu, dev, libc, optional, os.
const entry = ({ version, ...rest }) => ({
  version,
  ...Object.fromEntries(Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
});

let added = 0;
for (const [path, meta] of Object.entries(pkgs)) {
  for (const [dep, range] of Object.entries(meta.optionalDependencies ?? {})) {
    const base = path ? `${path}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (pkgs[base] || pkgs[hoisted]) continue;
    const p = platform(dep);
    if (!p) continue;
    pkgs[hoisted] = entry({
      version: range.replace(/^[\^~]/, ''),
      ...(meta.dev ? { dev: true } : {}),
      optional: true,
      ...p,
    });
    added++;
  }
}

// npm sorts `packages` with an English-locale comparison (its
// @isaacs/string-locale-compare('en')), the root entry ('') first.
const compare = new Intl.Collator('en').compare;
lock.packages = Object.fromEntries(
  Object.entries(pkgs).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : compare(a, b))),
);
const after = `${JSON.stringify(lock, null, 2)}\n`;

if (check) {
  if (after !== before) {
    console.error(
      `${file}: ${added} optional platform entries missing or entries out of npm's order; ` +
        'run `npm run lock:platforms` and commit the result',
    );
    process.exit(1);
  }
  process.exit(0);
}
if (after !== before) writeFileSync(file, after);
if (added > 0) console.log(`lockfile: added ${added} optional platform entries`);
