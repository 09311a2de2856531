import { area } from '../area';

export const insight = area({
  en: {},
  uk: {},
  ru: {},
});
