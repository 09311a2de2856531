// The @nlpjs language packages ship CommonJS without type declarations; only what text-analysis.ts uses.

interface NlpjsStemmer {
  stemWord(word: string): string;
}

interface NlpjsStopwords {
  /** Every stop word, as keys. */
  dictionary: Record<string, boolean>;
}

declare module '@nlpjs/lang-en-min' {
  const lang: { StemmerEn: new () => NlpjsStemmer; StopwordsEn: new () => NlpjsStopwords };
  export = lang;
}

declare module '@nlpjs/lang-ru' {
  const lang: { StemmerRu: new () => NlpjsStemmer; StopwordsRu: new () => NlpjsStopwords };
  export = lang;
}

declare module '@nlpjs/lang-uk' {
  const lang: { StemmerUk: new () => NlpjsStemmer };
  export = lang;
}
