import type { ComponentChildren } from 'preact';
import { t } from '../i18n';
import type { MessageKey } from '../i18n/en';
import type { Submitted } from './common';
import { LanguagePicker } from './LanguagePicker';

/** The texts of each page shown before a session. */
const TEXTS = {
  login: { title: 'app.title', intro: 'auth.intro', submit: 'auth.login' },
  setup: { title: 'setup.title', intro: 'setup.intro', submit: 'setup.submit' },
} as const satisfies Record<string, Record<'title' | 'intro' | 'submit', MessageKey>>;

/**
 * The one card of the pages shown before a session (sign-in, setup): a titled
 * form with its intro, the fields and error note the page passes, the submit
 * button (disabled while the submit runs) and the language choice.
 */
export function AuthCard({
  page,
  form,
  children,
}: {
  page: keyof typeof TEXTS;
  form: Submitted;
  children: ComponentChildren;
}) {
  const texts = TEXTS[page];
  const titleId = `${page}-title`;
  return (
    <main id="main" class="login">
      <form onSubmit={form.submit} class="card" aria-labelledby={titleId}>
        <h1 id={titleId}>{t(texts.title)}</h1>
        <p class="muted">{t(texts.intro)}</p>
        {children}
        <button type="submit" class="primary" disabled={form.busy}>
          {t(texts.submit)}
        </button>
        <LanguagePicker />
      </form>
    </main>
  );
}
