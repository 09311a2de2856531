/**
 * Encoded runs read back: base64 (and base64url), hex, and URL-encoding
 * (`%69%67%6e...`), decoded recursively a bounded number of times, so that
 * an instruction wrapped in one or two encodings meets the same rules and
 * model as plain text. Pure functions.
 */

export interface Decoded {
  /** `base64`, `hex` or `url`, nested ones joined: `base64>base64`. */
  encoding: string;
  text: string;
}

const BASE64_BLOB = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
const HEX_BLOB = /(?<![0-9a-fA-F])(?:[0-9a-fA-F]{2}){12,}(?![0-9a-fA-F])/g;
/** At least four `%XX` escapes; `%` is outside the plain-character class, so matching never backtracks. */
const URL_ENCODED = /(?:[A-Za-z0-9._~!*'()-]*%[0-9a-fA-F]{2}){4,}[A-Za-z0-9._~!*'()-]*/g;
const MAX_BLOBS = 20;
const MAX_DEPTH = 3;
const MAX_DECODED_CHARS = 20_000;

/** Every readable text hidden in encoded runs of `text`, nested encodings included. */
export function decodeRuns(text: string): Decoded[] {
  const out: Decoded[] = [];
  const visit = (source: string, prefix: string, depth: number) => {
    if (depth > MAX_DEPTH || out.length >= MAX_BLOBS) return;
    for (const { encoding, value } of runs(source)) {
      if (out.length >= MAX_BLOBS) return;
      const decoded = decodeRun(encoding, value);
      if (!decoded) continue;
      const label = prefix ? `${prefix}>${encoding}` : encoding;
      out.push({ encoding: label, text: decoded });
      visit(decoded, label, depth + 1);
    }
  };
  visit(text.slice(0, 200_000), '', 1);
  return out;
}

function runs(text: string): Array<{ encoding: string; value: string }> {
  const found: Array<{ encoding: string; value: string }> = [];
  for (const m of text.matchAll(URL_ENCODED)) found.push({ encoding: 'url', value: m[0] });
  for (const m of text.matchAll(HEX_BLOB)) found.push({ encoding: 'hex', value: m[0] });
  for (const m of text.matchAll(BASE64_BLOB)) {
    // Words, paths and hex digests also match the base64 alphabet; real base64 mixes cases and digits.
    if (/^[a-z/_-]+$/.test(m[0]) || /^[0-9a-fA-F]+$/.test(m[0])) continue;
    found.push({ encoding: 'base64', value: m[0] });
  }
  return found.slice(0, MAX_BLOBS);
}

/** Decoded text when the run decodes to readable UTF-8, else null. */
function decodeRun(encoding: string, value: string): string | null {
  let text: string;
  if (encoding === 'url') {
    try {
      text = decodeURIComponent(value);
    } catch {
      return null;
    }
    return text.length >= 8 ? text.slice(0, MAX_DECODED_CHARS) : null;
  }
  const bytes =
    encoding === 'hex'
      ? Buffer.from(value, 'hex')
      : Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length < 8) return null;
  text = bytes.toString('utf8');
  // Random binary decodes to replacement and control characters; readable text mostly does not.
  const unreadable = text.match(/\uFFFD|(?![\t\n\r])\p{Cc}/gu)?.length ?? 0;
  if (unreadable / text.length >= 0.1) return null;
  const letters = text.match(/\p{L}/gu)?.length ?? 0;
  return letters / text.length >= 0.4 ? text.slice(0, MAX_DECODED_CHARS) : null;
}
