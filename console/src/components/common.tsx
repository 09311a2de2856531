import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { t } from '../i18n';

/** A readable sentence for a failed call: the service's own message, prefixed by what it means. */
export function errorText(error: unknown): string {
  if (error instanceof ApiError) {
    if (error.status === 409) return `${t('error.conflict')} ${error.message}`;
    if (error.status === 403) return `${t('error.forbidden')} ${error.message}`;
    if (error.status === 404) return t('error.notFound');
    if (error.status === 422 && error.details.length > 0) {
      return `${t('error.validation')} ${error.details.map((d) => `${d.field}: ${d.message}`).join('; ')}`;
    }
    return error.message;
  }
  return t('error.network');
}

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {errorText(error)}
    </p>
  );
}

export interface Loaded<T> {
  data: T | null;
  error: unknown;
  loading: boolean;
  reload(): Promise<void>;
}

/** Loads `load()` now and whenever a dependency changes; `reload` runs it again. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [loading, setLoading] = useState(true);
  const reload = useCallback(async () => {
    setLoading(true);
    try {
      setData(await load());
      setError(null);
    } catch (e) {
      setError(e);
    } finally {
      setLoading(false);
    }
  }, deps);
  useEffect(() => {
    void reload();
  }, [reload]);
  return { data, error, loading, reload };
}

/** A label around its control (the children), so a click on the text focuses the control. */
export function Field({ label, children }: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child the caller passes
    <label class="field">
      <span>{label}</span>
      {children}
    </label>
  );
}

export interface Submitted {
  submit(event: Event): Promise<void>;
  error: unknown;
  busy: boolean;
}

/**
 * A form's submit handler for `action`: keeps the page, clears the last
 * error, runs the action, and keeps what it threw to show; `busy` is true
 * while it runs, to disable the submit button.
 */
export function useSubmit(action: () => Promise<void>): Submitted {
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };
  return { submit, error, busy };
}

/** A value of the API shown as readable JSON (step input and output, reason details). */
export function JsonView({ value, label }: { value: unknown; label: string }) {
  return (
    <figure class="json">
      <figcaption class="sr-only">{label}</figcaption>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block must be reachable by keyboard */}
      <pre tabIndex={0}>{JSON.stringify(value, null, 2)}</pre>
    </figure>
  );
}
