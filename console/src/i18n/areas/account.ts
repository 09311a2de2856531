import { area } from '../area';

export const account = area({
  en: {},
  uk: {},
  ru: {},
});
