import { area } from '../area';

export const assistant = area({
  en: {},
  uk: {},
  ru: {},
});
