import { useState } from 'preact/hooks';
import { api, type Success } from '../../api/client';
import { ErrorNote, useLoad } from '../../components/common';
import { DataTable } from '../../components/DataTable';
import { LoadedList } from '../../components/LoadedList';
import { SchemaForm } from '../../components/SchemaForm';
import { t } from '../../i18n';

type Plugin = Success<'/plugins', 'get'>['items'][number];
type Installed = Success<'/namespaces/{id}/plugins', 'get'>['items'][number];

/**
 * The namespace's plugins: the installed ones (enable, disable, configure,
 * uninstall) and the catalog of the service's plugins to install. Each
 * plugin is configured through a form generated from its configSchema.
 */
export function NamespacePlugins({ namespaceId }: { namespaceId: string }) {
  const catalog = useLoad(() => api('get', '/plugins', { query: { limit: 100 } }), []);
  const installed = useLoad(
    () => api('get', '/namespaces/{id}/plugins', { params: { id: namespaceId }, query: { limit: 100 } }),
    [namespaceId],
  );
  const [editing, setEditing] = useState<string | null>(null);
  const [status, setStatus] = useState('');
  const [error, setError] = useState<unknown>(null);
  const plugins = catalog.data?.items ?? [];
  const rows = installed.data?.items ?? [];
  const installedOf = (pluginId: string) => rows.find((row) => row.pluginId === pluginId);
  const pluginOf = (pluginId: string) => plugins.find((plugin) => plugin.id === pluginId);
  const nameOf = (pluginId: string) => pluginOf(pluginId)?.name ?? pluginId;

  const act = async (action: () => Promise<unknown>, done: string) => {
    setError(null);
    setStatus('');
    try {
      await action();
      setStatus(done);
      await installed.reload();
    } catch (caught) {
      setError(caught);
    }
  };
  const save = async (pluginId: string, config: Record<string, unknown>) => {
    const params = { id: namespaceId, pluginId };
    if (installedOf(pluginId))
      await api('patch', '/namespaces/{id}/plugins/{pluginId}', { params, body: { config } });
    else await api('post', '/namespaces/{id}/plugins/{pluginId}', { params, body: { config } });
    setEditing(null);
    setStatus(t('plugins.saved', { name: nameOf(pluginId) }));
    await installed.reload();
  };
  const toggle = (row: Installed) =>
    act(
      () =>
        api('patch', '/namespaces/{id}/plugins/{pluginId}', {
          params: { id: namespaceId, pluginId: row.pluginId },
          body: { enabled: !row.enabled },
        }),
      t(row.enabled ? 'plugins.disabledNote' : 'plugins.enabledNote', { name: row.name }),
    );
  const uninstall = (row: Installed) =>
    act(
      () =>
        api('delete', '/namespaces/{id}/plugins/{pluginId}', {
          params: { id: namespaceId, pluginId: row.pluginId },
        }),
      t('plugins.uninstalled', { name: row.name }),
    );

  const editedPlugin = editing ? pluginOf(editing) : undefined;
  return (
    <section aria-labelledby="namespace-plugins-title">
      <h2 id="namespace-plugins-title">{t('plugins.title')}</h2>
      <p role="status" class="ok">
        {status}
      </p>
      <ErrorNote error={error} />
      <h3>{t('plugins.installed')}</h3>
      <LoadedList loaded={installed} count={rows.length} empty={t('plugins.none')}>
        <DataTable
          caption={t('plugins.installed')}
          columns={[t('plugins.name'), t('plugins.state'), t('plugins.actions')]}
        >
          {rows.map((row) => (
            <tr key={row.pluginId}>
              <td>
                {row.name} <span class="muted small">{row.version}</span>
              </td>
              <td>
                {row.registered
                  ? t(row.enabled ? 'plugins.enabled' : 'plugins.disabled')
                  : t('plugins.unregistered')}
              </td>
              <td>
                <span class="row wrap">
                  {row.registered && (
                    <button
                      type="button"
                      class="small"
                      aria-label={t('plugins.configureOne', { name: row.name })}
                      onClick={() => setEditing(row.pluginId)}
                    >
                      {t('plugins.configure')}
                    </button>
                  )}
                  <button type="button" class="small" onClick={() => void toggle(row)}>
                    {t(row.enabled ? 'plugins.disable' : 'plugins.enable')}
                    <span class="sr-only"> {row.name}</span>
                  </button>
                  <button type="button" class="small danger" onClick={() => void uninstall(row)}>
                    {t('plugins.uninstall')}
                    <span class="sr-only"> {row.name}</span>
                  </button>
                </span>
              </td>
            </tr>
          ))}
        </DataTable>
      </LoadedList>
      <h3>{t('plugins.available')}</h3>
      <LoadedList loaded={catalog} count={plugins.length} empty={t('plugins.noneAvailable')}>
        <ul class="plugin-catalog">
          {plugins.map((plugin) => (
            <li key={plugin.id}>
              <strong>{plugin.name}</strong> <span class="muted small">{plugin.version}</span>
              <p class="small">{plugin.description}</p>
              {!installedOf(plugin.id) && (
                <button type="button" class="small" onClick={() => setEditing(plugin.id)}>
                  {t('plugins.install')}
                  <span class="sr-only"> {plugin.name}</span>
                </button>
              )}
            </li>
          ))}
        </ul>
      </LoadedList>
      {editing && editedPlugin && (
        <PluginForm
          plugin={editedPlugin}
          installed={installedOf(editing)}
          onSave={(config) => save(editing, config)}
          onCancel={() => setEditing(null)}
        />
      )}
    </section>
  );
}

/** The configuration form of one plugin, generated from its JSON Schema. */
function PluginForm({
  plugin,
  installed,
  onSave,
  onCancel,
}: {
  plugin: Plugin;
  installed: Installed | undefined;
  onSave(config: Record<string, unknown>): Promise<void>;
  onCancel(): void;
}) {
  return (
    <section class="card plugin-form" aria-labelledby="plugin-form-title">
      <h3 id="plugin-form-title">
        {t(installed ? 'plugins.configureTitle' : 'plugins.installTitle', { name: plugin.name })}
      </h3>
      <SchemaForm
        schema={plugin.configSchema}
        secretFields={plugin.secretFields}
        value={installed?.config}
        submitLabel={t(installed ? 'plugins.saveConfig' : 'plugins.install')}
        onSubmit={onSave}
      />
      <button type="button" class="link" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </section>
  );
}
