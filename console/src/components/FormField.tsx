import type { ComponentChildren, InputHTMLAttributes } from 'preact';
import { useId } from 'preact/hooks';
import { t } from '../i18n';
import { Field } from './common';

/** One choice of a {@link SelectField}. */
export interface Choice<V extends string = string> {
  value: V;
  label: string;
}

/**
 * A labelled drop-down; with `all`, a first choice with the empty value that
 * stands for no filter.
 */
export function SelectField<V extends string>({
  label,
  value,
  onChange,
  choices,
  all = false,
}: {
  label: string;
  value: V;
  onChange(value: NoInfer<V>): void;
  choices: readonly Choice<NoInfer<V>>[];
  all?: boolean;
}) {
  return (
    <Field label={label}>
      {/* The select offers only the choices (and "All" where `all` puts '' in V): its value is a V. */}
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as V)}>
        {all && <option value="">{t('common.all')}</option>}
        {choices.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </Field>
  );
}

/** What an {@link InputField} passes on to its input: its kind, its name for the browser, its limits. */
interface InputRules {
  type?: 'text' | 'email' | 'password' | 'search';
  name?: string;
  autoComplete?: string;
  spellcheck?: boolean;
  required?: boolean;
  minLength?: number;
  maxLength?: number;
}

/**
 * A labelled text input that reports each
 * keystroke; a `hint` under it is tied to it with aria-describedby, so a
 * screen reader reads the rule with the field.
 */
export function InputField({
  label,
  value,
  onValue,
  hint,
  ...input
}: {
  label: string;
  value: string;
  onValue(value: string): void;
  hint?: string;
} & InputRules) {
  const hintId = useId();
  return (
    <Field label={label}>
      <input
        // The input types narrow the allowed roles one type at a time; these rules hold for each of them.
        {...(input as InputHTMLAttributes<HTMLInputElement>)}
        aria-describedby={hint ? hintId : undefined}
        value={value}
        onInput={(e) => onValue(e.currentTarget.value)}
      />
      {hint && (
        <small id={hintId} class="muted">
          {hint}
        </small>
      )}
    </Field>
  );
}

/** The email that signs an account in; the browser's password manager offers the saved one. */
export function EmailField({ value, onValue }: { value: string; onValue(value: string): void }) {
  return (
    <InputField
      label={t('auth.email')}
      type="email"
      name="email"
      autoComplete="username"
      required
      value={value}
      onValue={onValue}
    />
  );
}

/** A list's filter fields in a row; they apply as they change, so Enter submits nothing. */
export function Filters({ children }: { children: ComponentChildren }) {
  return (
    <form class="filters" onSubmit={(e) => e.preventDefault()} aria-label={t('common.filters')}>
      {children}
    </form>
  );
}

/**
 * The password of an account. A `fresh` one is being chosen: the browser may
 * suggest one, and the service's length rule stands under it as its hint.
 */
export function PasswordField({
  value,
  onValue,
  fresh = false,
}: {
  value: string;
  onValue(value: string): void;
  fresh?: boolean;
}) {
  const rule = fresh ? { minLength: 8, maxLength: 128, hint: t('setup.passwordRule') } : {};
  return (
    <InputField
      label={t('auth.password')}
      type="password"
      name="password"
      autoComplete={fresh ? 'new-password' : 'current-password'}
      required
      {...rule}
      value={value}
      onValue={onValue}
    />
  );
}
