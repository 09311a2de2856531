import { account } from './account';
import { admin } from './admin';
import { assistant } from './assistant';
import { content } from './content';
import { insight } from './insight';
import { org } from './org';

/** Every area's labels, by language (see ../area.ts). */
export const areasEn = {
  ...admin.en,
  ...org.en,
  ...assistant.en,
  ...content.en,
  ...insight.en,
  ...account.en,
};
export const areasUk = {
  ...admin.uk,
  ...org.uk,
  ...assistant.uk,
  ...content.uk,
  ...insight.uk,
  ...account.uk,
};
export const areasRu = {
  ...admin.ru,
  ...org.ru,
  ...assistant.ru,
  ...content.ru,
  ...insight.ru,
  ...account.ru,
};
