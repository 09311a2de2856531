/**
 * Prompt-injection detection for user messages, documents and retrieved
 * passages. The layers live in ./injection/ (normalisation, HTML hidden
 * text, transliteration, decoding, rules, trained model); this module keeps
 * the import path its callers use. See docs/injection.md.
 */
export {
  type DetectOptions,
  detectInjection,
  INJECTION_THRESHOLD,
  type InjectionVerdict,
} from './injection/detector.js';
export { DETECTOR_FINGERPRINT } from './injection/fingerprint.js';
/** The folded text the rules read (kept under its earlier name). */
export { foldText as normaliseForDetection } from './injection/normalise.js';
