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

export function Field({
  label,
  children,
  hint,
}: {
  label: string;
  children: ComponentChildren;
  hint?: string;
}) {
  return (
    // biome-ignore lint/a11y/noLabelWithoutControl: the control is the child the caller passes
    <label class="field">
      <span>{label}</span>
      {children}
      {hint && <span class="muted small">{hint}</span>}
    </label>
  );
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
