import { useId } from 'preact/hooks';
import { t } from '../i18n';

/**
 * The second step of a destructive action (delete, archive): the question, when there is one,
 * and a danger button that does it beside Cancel. `small` for the buttons inside a table row.
 */
export function ConfirmBox({
  question,
  confirmLabel,
  onConfirm,
  onCancel,
  busy = false,
  small = false,
  class: className,
}: {
  question?: string;
  confirmLabel: string;
  onConfirm(): void;
  onCancel(): void;
  busy?: boolean;
  small?: boolean;
  class?: string;
}) {
  const id = useId();
  const size = small ? ' small' : '';
  const buttons = (
    <span class="row wrap">
      <button type="button" class={`danger${size}`} disabled={busy} onClick={onConfirm}>
        {confirmLabel}
      </button>
      <button type="button" class={size.trim() || undefined} onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </span>
  );
  if (!question) return buttons;
  return (
    <div role="alertdialog" aria-labelledby={id} class={className}>
      <p id={id}>{question}</p>
      {buttons}
    </div>
  );
}
