import { t } from '../i18n';
import { useDepartments, useNamespaces } from '../state/directory';
import { SelectField } from './FormField';

interface DirectorySelectProps {
  value: string;
  onChange(id: string): void;
  /** Adds the first choice, "All", with the empty value: no filter. */
  all?: boolean;
}

/** A drop-down of the namespaces the user can see, by name; its value is the namespace id. */
export function NamespaceSelect(props: DirectorySelectProps) {
  return <NamedSelect {...props} label={t('common.namespace')} rows={useNamespaces()} />;
}

/** A drop-down of the departments the user works in, by name; its value is the department id. */
export function DepartmentSelect(props: DirectorySelectProps) {
  return <NamedSelect {...props} label={t('common.department')} rows={useDepartments()} />;
}

function NamedSelect({
  rows,
  ...select
}: DirectorySelectProps & { label: string; rows: ReadonlyArray<{ id: string; name: string }> }) {
  return <SelectField {...select} choices={rows.map((row) => ({ value: row.id, label: row.name }))} />;
}
