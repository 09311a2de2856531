import { area } from '../area';

export const content = area({
  en: {},
  uk: {},
  ru: {},
});
