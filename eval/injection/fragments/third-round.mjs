// The third round of training-only phrasings, carrier documents and ordinary texts.
import { documents } from './third-round-documents.mjs';
import { en as enPhrases } from './third-round-en.mjs';
import { benignHidden, headings, plain, policyLines, uiLines } from './third-round-plain.mjs';
import { ru as ruPhrases } from './third-round-ru.mjs';
import { uk as ukPhrases } from './third-round-uk.mjs';

export const en = {
  ...enPhrases,
  documents: documents.en,
  plain: plain.en,
  benignHidden: benignHidden.en,
  headings: [...headings.en, ...policyLines.en, ...benignHidden.en, ...uiLines.en],
};
export const uk = {
  ...ukPhrases,
  documents: documents.uk,
  plain: plain.uk,
  benignHidden: benignHidden.uk,
  headings: [...headings.uk, ...policyLines.uk, ...benignHidden.uk, ...uiLines.uk],
};
export const ru = {
  ...ruPhrases,
  documents: documents.ru,
  plain: plain.ru,
  benignHidden: benignHidden.ru,
  headings: [...headings.ru, ...policyLines.ru, ...benignHidden.ru, ...uiLines.ru],
};
