// Checks the Dockerfile without a Docker daemon (CI cannot pull images):
// it parses, every COPY/ADD source exists in the build context and is not
// left out by .dockerignore, every `COPY --from=<stage>` source is something
// the build produced (run this after `npm run build`), the final stage's
// ENTRYPOINT runs a script that stage copied in and that was built, and it
// has a CMD, a HEALTHCHECK and a user other than root. It also reads the
// built service's imports: each package it loads must be a production
// dependency, or `npm ci --omit=dev` leaves it out of the image.
// Usage: node scripts/check-dockerfile.mjs [--context <dir>] [--dockerfile <file>] [--dist <dir>]
//   --dist  the built output to read imports from (default dist, skipped when absent
//           unless the Dockerfile copies it from a stage, which then fails on its own).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, posix, resolve } from 'node:path';
import { DockerfileParser } from 'dockerfile-ast';

function option(args, name, fallback) {
  const index = args.indexOf(name);
  return index >= 0 && args[index + 1] ? args[index + 1] : fallback;
}

/** A .dockerignore pattern as a RegExp over context-relative paths (Go's filepath.Match, plus `**`). */
function ignoreRegExp(pattern) {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
      if (pattern[i + 1] === '/') i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '?') source += '[^/]';
    else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/** The .dockerignore rules of `context`, in order: `{ exclude, re }`. */
function readIgnoreRules(context) {
  const file = join(context, '.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const exclude = !line.startsWith('!');
      const pattern = posix
        .normalize((exclude ? line : line.slice(1)).replace(/^\/+/, ''))
        .replace(/\/$/, '');
      return { exclude, re: ignoreRegExp(pattern) };
    });
}

/** Whether Docker leaves `path` (or a folder above it) out of the context: the last matching rule wins. */
function ignored(rules, path) {
  const parts = path.split('/');
  let excluded = false;
  for (let depth = 1; depth <= parts.length; depth++) {
    const prefix = parts.slice(0, depth).join('/');
    for (const rule of rules) if (rule.re.test(prefix)) excluded = rule.exclude;
    if (excluded) return true;
  }
  return excluded;
}

/** Every `.js`/`.mjs` file under `dir`. */
function scripts(dir) {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.m?js$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

const IMPORT_PATTERNS = [
  /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*['"]([^'"\n]+)['"]/gm,
  /^\s*import\s*['"]([^'"\n]+)['"]/gm,
  /\bimport\(\s*['"`]([^'"`\n]+)['"`]\s*\)/g,
  /\brequire(?:\.resolve)?\(\s*['"`]([^'"`\n]+)['"`]/g,
];
/** What a package specifier looks like (`name`, `@scope/name`, subpaths, `${…}` parts). */
const SPECIFIER = /^(?:@[\w.-]+\/)?[\w.${}-]+(?:\/[\w.${}/-]*)?$/;

/**
 * The packages the built files load, by name; a specifier built at run time
 * (`@scope/${name}`) counts as its scope (`@scope/*`).
 */
function importedPackages(dist) {
  const found = new Map();
  // The console is a browser bundle: Vite put its packages inside it.
  const consoleDir = join(dist, 'console');
  for (const file of scripts(dist).filter((f) => !f.startsWith(consoleDir))) {
    const text = readFileSync(file, 'utf8');
    for (const pattern of IMPORT_PATTERNS) {
      for (const match of text.matchAll(pattern)) {
        const specifier = match[1];
        if (!SPECIFIER.test(specifier) || specifier.startsWith('.') || specifier.startsWith('node:'))
          continue;
        const dynamic = specifier.indexOf('${');
        const literal = dynamic >= 0 ? specifier.slice(0, dynamic) : specifier;
        const parts = literal.split('/');
        let name;
        if (literal.startsWith('@'))
          name = parts.length > 1 && parts[1] ? `${parts[0]}/${parts[1]}` : `${parts[0]}/*`;
        else name = parts[0];
        if (!name || builtinModules.includes(name)) continue;
        if (!found.has(name)) found.set(name, file);
      }
    }
  }
  return found;
}

/** Checks a Dockerfile against its build context; answers the problems found (empty: fine) and a summary. */
export function checkDockerfile({
  context,
  dockerfile = join(context, 'Dockerfile'),
  dist = join(context, 'dist'),
}) {
  const problems = [];
  if (!existsSync(dockerfile)) return { problems: [`${dockerfile}: missing`], summary: '' };
  const parsed = DockerfileParser.parse(readFileSync(dockerfile, 'utf8'));
  const rules = readIgnoreRules(context);
  const at = (instruction) => `line ${instruction.getRange().start.line + 1}`;

  const froms = parsed.getFROMs();
  if (froms.length === 0) return { problems: ['no FROM instruction'], summary: '' };
  const stages = froms.map((from, index) => {
    const start = from.getRange().start.line;
    const end = froms[index + 1]?.getRange().start.line ?? Number.POSITIVE_INFINITY;
    const inStage = (instruction) => {
      const line = instruction.getRange().start.line;
      return line > start && line < end;
    };
    return { name: from.getBuildStage(), index, inStage };
  });
  const stageOf = (instruction) => stages.find((stage) => stage.inStage(instruction));
  /** The WORKDIR in force at `line` of `stage` (absolute; `/` before any). */
  const workdirAt = (stage, line) => {
    let dir = '/';
    for (const workdir of parsed.getWORKDIRs()) {
      if (!stage.inStage(workdir) || workdir.getRange().start.line > line) continue;
      dir = posix.resolve(dir, workdir.getArgumentsContent() ?? '.');
    }
    return dir;
  };

  /** A COPY/ADD's sources and destination, flags and heredocs left out. */
  const operands = (instruction) => {
    const values = instruction
      .getArguments()
      .map((argument) => argument.getValue())
      .filter((value) => !value.startsWith('--'));
    return { sources: values.slice(0, -1), destination: values.at(-1) };
  };

  const copies = [...parsed.getCOPYs(), ...parsed.getInstructions().filter((i) => i.getKeyword() === 'ADD')];
  let checkedSources = 0;
  for (const copy of copies) {
    const stage = stageOf(copy);
    const { sources, destination } = operands(copy);
    if (!destination || sources.length === 0) {
      problems.push(`${at(copy)}: ${copy.getKeyword()} needs a source and a destination`);
      continue;
    }
    const fromFlag = copy.getKeyword() === 'COPY' ? copy.getFromFlag() : null;
    for (const source of sources) {
      checkedSources++;
      if (/^https?:\/\//.test(source)) continue;
      if (/[*?[]/.test(source)) {
        problems.push(`${at(copy)}: ${source}: wildcards are not checked; name the files`);
        continue;
      }
      if (!fromFlag) {
        const relative = posix.normalize(source.replace(/^\/+/, '')).replace(/\/$/, '');
        if (relative.startsWith('..')) problems.push(`${at(copy)}: ${source} lies outside the build context`);
        else if (!existsSync(join(context, relative))) problems.push(`${at(copy)}: ${source} does not exist`);
        else if (ignored(rules, relative))
          problems.push(`${at(copy)}: ${source} is left out by .dockerignore`);
        continue;
      }
      const from = fromFlag.getValue() ?? '';
      const producer = stages.find((s) => s.name === from || String(s.index) === from);
      if (!producer || producer.index >= (stage?.index ?? 0)) {
        problems.push(`${at(copy)}: --from=${from} names no earlier build stage`);
        continue;
      }
      // The producing stage works in the context's layout under its WORKDIR, so
      // its /app/dist is the context's dist after `npm run build`.
      const workdir = workdirAt(producer, Number.POSITIVE_INFINITY);
      const absolute = posix.resolve(workdir, source);
      const relative = posix.relative(workdir, absolute);
      if (relative.startsWith('..') || relative === '') {
        problems.push(`${at(copy)}: ${source} is outside stage ${from}'s WORKDIR ${workdir}`);
      } else if (!existsSync(join(context, relative))) {
        problems.push(
          `${at(copy)}: ${source} from stage ${from} is not built (no ${relative}; run npm run build first)`,
        );
      }
    }
  }

  const final = stages.at(-1);
  const finalOnes = (list) => list.filter((instruction) => final.inStage(instruction));
  const entrypoint = finalOnes(parsed.getENTRYPOINTs()).at(-1);
  const cmd = finalOnes(parsed.getCMDs()).at(-1);
  let entry = null;
  if (!entrypoint) problems.push('the final stage has no ENTRYPOINT');
  else {
    const args = entrypoint.getJSONStrings().map((s) => s.getJSONValue());
    if (args.length === 0) problems.push(`${at(entrypoint)}: ENTRYPOINT is not in exec (JSON) form`);
    entry = args.find((arg) => /\.m?js$/.test(arg)) ?? null;
    if (args.length > 0 && !entry) problems.push(`${at(entrypoint)}: ENTRYPOINT runs no .js script`);
  }
  if (entry) {
    // The script must arrive by a COPY into the final stage, from a file that exists.
    const target = posix.resolve(workdirAt(final, entrypoint.getRange().start.line), entry);
    let provided = null;
    for (const copy of finalOnes(copies)) {
      const { sources, destination } = operands(copy);
      const into = posix.resolve(workdirAt(final, copy.getRange().start.line), destination ?? '.');
      if (sources.length !== 1 || !(target === into || target.startsWith(`${into}/`))) continue;
      const rest = posix.relative(into, target);
      const fromFlag = copy.getKeyword() === 'COPY' ? copy.getFromFlag() : null;
      const producer = fromFlag ? stages.find((s) => s.name === fromFlag.getValue()) : null;
      const base = producer
        ? posix.relative(
            workdirAt(producer, Number.POSITIVE_INFINITY),
            posix.resolve(workdirAt(producer, Number.POSITIVE_INFINITY), sources[0]),
          )
        : posix.normalize(sources[0]);
      provided = posix.join(base, rest);
    }
    if (!provided) problems.push(`ENTRYPOINT's ${entry}: no COPY in the final stage brings it in`);
    else if (!existsSync(join(context, provided)))
      problems.push(`ENTRYPOINT's ${entry}: ${provided} is not built (run npm run build first)`);
  }
  if (!cmd) problems.push('the final stage has no CMD (the run mode: all, api or worker)');
  const healthcheck = finalOnes(parsed.getHEALTHCHECKs()).at(-1);
  const healthArgs = healthcheck?.getArguments().map((a) => a.getValue().toUpperCase()) ?? [];
  if (!healthcheck || !healthArgs.includes('CMD')) problems.push('the final stage has no HEALTHCHECK CMD');
  const user = finalOnes(parsed.getInstructions().filter((i) => i.getKeyword() === 'USER')).at(-1);
  const userName = user?.getArgumentsContent()?.split(':')[0];
  if (!userName || userName === 'root' || userName === '0')
    problems.push('the final stage runs as root (add USER)');

  let packagesChecked = 0;
  if (existsSync(dist)) {
    const manifest = JSON.parse(readFileSync(join(context, 'package.json'), 'utf8'));
    const production = new Set([
      ...Object.keys(manifest.dependencies ?? {}),
      ...Object.keys(manifest.optionalDependencies ?? {}),
    ]);
    const development = new Set(Object.keys(manifest.devDependencies ?? {}));
    for (const [name, file] of importedPackages(dist)) {
      packagesChecked++;
      const inScope = (set) => [...set].some((dep) => dep.startsWith(name.slice(0, -1)));
      const isProduction = name.endsWith('/*') ? inScope(production) : production.has(name);
      if (isProduction) continue;
      const where = posix.relative(context, file);
      const isDevelopment = name.endsWith('/*') ? inScope(development) : development.has(name);
      problems.push(
        isDevelopment
          ? `${where} loads ${name}, a devDependency: npm ci --omit=dev leaves it out of the image`
          : `${where} loads ${name}, which package.json does not list`,
      );
    }
  }
  const summary = `${checkedSources} COPY/ADD sources, entry ${entry ?? '?'}, ${packagesChecked} packages the build loads`;
  return { problems, summary };
}

const isMain = process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename);
if (isMain) {
  const args = process.argv.slice(2);
  const context = resolve(option(args, '--context', '.'));
  const { problems, summary } = checkDockerfile({
    context,
    dockerfile: resolve(context, option(args, '--dockerfile', 'Dockerfile')),
    dist: resolve(context, option(args, '--dist', 'dist')),
  });
  if (problems.length > 0) {
    for (const problem of problems) process.stderr.write(`Dockerfile: ${problem}\n`);
    process.exit(1);
  }
  process.stdout.write(`Dockerfile: ok (${summary})\n`);
}
