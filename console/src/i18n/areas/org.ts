import { area } from '../area';

export const org = area({
  en: {},
  uk: {},
  ru: {},
});
