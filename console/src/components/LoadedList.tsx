import type { ComponentChildren } from 'preact';
import { t } from '../i18n';
import { ErrorNote, errorText, type Loaded } from './common';

/**
 * A loaded list with its states around the rows (the children): the load
 * error as an alert, the `empty` sentence once the load answered with no
 * rows, and the rows once there are some. `keepEmpty` keeps the rows' frame
 * (a table's headings, an empty list) on screen with none. `announce` adds the
 * loading line of the first load and a polite live region that reads the load
 * error out, for a list that reloads on its own.
 */
export function LoadedList({
  loaded,
  count,
  empty,
  keepEmpty = false,
  announce = false,
  children,
}: {
  loaded: Pick<Loaded<unknown>, 'data' | 'error' | 'loading'>;
  count: number;
  empty: string;
  keepEmpty?: boolean;
  announce?: boolean;
  children: ComponentChildren;
}) {
  return (
    <>
      <ErrorNote error={loaded.error} />
      {loaded.data && count === 0 && <p class="muted">{empty}</p>}
      {(count > 0 || keepEmpty) && children}
      {announce && loaded.loading && !loaded.data && <p class="muted">{t('common.loading')}</p>}
      {announce && (
        <p class="sr-only" aria-live="polite">
          {loaded.error ? errorText(loaded.error) : ''}
        </p>
      )}
    </>
  );
}
