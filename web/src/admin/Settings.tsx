/**
 * The owner's settings (docs/contract.md, "Business settings" and "Roles"): the business name,
 * return address, public address, payment instructions and sender (`/api/settings`), and the
 * helpers' admin tokens (`/api/admin/tokens`: made with a role, shown once, revoked at once).
 * The banner (`SettingsBanner`) tells the owner, on every dashboard page, what is still a
 * placeholder.
 */
import { useEffect, useState } from 'preact/hooks';
import { ConfirmButton, ErrorBox, Notice, Spinner, useTitle } from '../components/common.js';
import { ApiError, adminApi, ok } from '../lib/api.js';
import type {
  AdminToken,
  AdminTokenCreated,
  BusinessSettings,
  BusinessSettingsUpdate,
  BusinessSettingsUpdateInput,
} from '../lib/api-schema.js';
import { formatDateTime } from '../lib/format.js';
import { useApi } from '../lib/hooks.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';
import { may, useAdminMe } from './role.js';
import { adminToken, onAdminError } from './session.js';

type Field = keyof BusinessSettingsUpdate;

const FIELDS: { key: Field; label: string; hint: string; rows?: number; type?: 'url' }[] = [
  { key: 'businessName', label: 'Business name', hint: 'Mail is signed with it; link previews show it.' },
  {
    key: 'returnAddress',
    label: 'Return address',
    hint: 'On every shipping label and packing slip, one line per line.',
    rows: 4,
  },
  {
    key: 'publicBaseUrl',
    label: 'Public address',
    hint: 'What customers open: links in mail, photo code cards and link previews start with it.',
    type: 'url',
  },
  {
    key: 'paymentInstructions',
    label: 'How to pay',
    hint: 'Shown to customers with an unpaid order, on their order page and in the receipt.',
    rows: 3,
  },
  {
    key: 'mailFrom',
    label: 'Mail from',
    hint: 'Name <address>, e.g. Jane Doe Photography <photos@janedoe.com>. Your mail service must allow it.',
  },
];

const SETTINGS = '/api/settings' as const;

/** On every dashboard page, for the owner: what must be set before labels, cards and mail go out. */
export function SettingsBanner() {
  const me = useAdminMe(useStore(adminToken));
  const allowed = may(me, 'GET /api/settings');
  const settings = useApi(allowed ? SETTINGS : null, {}, { admin: true });
  const warnings = settings.data?.warnings ?? [];
  if (!allowed || warnings.length === 0 || location.pathname === '/admin/settings') return null;
  return (
    <Notice kind="warn" role="status">
      <strong>Before you sell:</strong> {warnings.map((w) => w.message).join('. ')}.{' '}
      <a href="/admin/settings">Set them in Settings</a>.
    </Notice>
  );
}

export default function Settings() {
  useTitle('Settings');
  const me = useAdminMe(useStore(adminToken));
  return (
    <>
      <h1>Settings</h1>
      <BusinessPanel />
      {may(me, 'GET /api/admin/tokens') && <TokensPanel />}
    </>
  );
}

function BusinessPanel() {
  const loaded = useApi(SETTINGS, {}, { admin: true });
  const [values, setValues] = useState<Record<Field, string> | null>(null);
  const [saved, setSaved] = useState<BusinessSettings | null>(null);
  const [problems, setProblems] = useState<Partial<Record<Field, string>>>({});
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const current = saved ?? loaded.data;

  useEffect(() => {
    if (loaded.data && !values) setValues(pick(loaded.data));
    if (loaded.error) onAdminError(loaded.error);
  }, [loaded.data, loaded.error]);

  if (loaded.error && !current) return <ErrorBox error={loaded.error} onRetry={loaded.reload} />;
  if (!current || !values) return <Spinner label="Loading the settings…" />;

  const save = async (e: Event) => {
    e.preventDefault();
    const changed = Object.fromEntries(
      FIELDS.filter((f) => values[f.key].trim() !== current[f.key]).map((f) => [f.key, values[f.key]]),
    ) as BusinessSettingsUpdateInput;
    if (Object.keys(changed).length === 0) {
      showToast('Nothing changed');
      return;
    }
    setBusy(true);
    setError('');
    setProblems({});
    try {
      const next = await ok(adminApi.PUT(SETTINGS, { body: changed }));
      setSaved(next);
      setValues(pick(next));
      showToast('Settings saved: labels, cards and mail use them from now on');
    } catch (err) {
      const e2 = onAdminError(err);
      if (e2 instanceof ApiError) setProblems(e2.fieldErrors() as Partial<Record<Field, string>>);
      setError(e2.message);
    } finally {
      setBusy(false);
    }
  };

  const reset = async (key: Field) => {
    setBusy(true);
    try {
      const next = await ok(adminApi.PUT(SETTINGS, { body: { [key]: null } }));
      setSaved(next);
      setValues(pick(next));
    } catch (err) {
      setError(onAdminError(err).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card settings-form" onSubmit={save} noValidate aria-labelledby="business-title">
      <h2 id="business-title">Business</h2>
      {current.warnings.length > 0 && (
        <Notice kind="warn" role="status">
          <ul class="plain">
            {current.warnings.map((w) => (
              <li key={w.field}>{w.message}.</li>
            ))}
          </ul>
        </Notice>
      )}
      {FIELDS.map((f) => {
        const id = `settings-${f.key}`;
        const problem = problems[f.key];
        const isDefault = !current.saved.includes(f.key);
        const input = {
          id,
          value: values[f.key],
          'aria-invalid': problem ? true : undefined,
          'aria-describedby': `${id}-hint${problem ? ` ${id}-error` : ''}`,
          onInput: (e: Event) =>
            setValues({ ...values, [f.key]: (e.target as HTMLInputElement | HTMLTextAreaElement).value }),
        };
        return (
          <div class="field" key={f.key}>
            <label for={id}>{f.label}</label>
            <p id={`${id}-hint`} class="hint">
              {f.hint} {isDefault ? '(From the server’s environment.)' : ''}
            </p>
            {f.rows ? <textarea rows={f.rows} {...input} /> : <input type={(f.type ?? 'text') as 'text'} {...input} />}
            {problem && (
              <p id={`${id}-error`} class="field-error">
                {problem}
              </p>
            )}
            {!isDefault && (
              <button type="button" class="btn btn-ghost btn-small" disabled={busy} onClick={() => void reset(f.key)}>
                Use the server’s default ({current.defaults[f.key].split('\n')[0]})
              </button>
            )}
          </div>
        );
      })}
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" class="btn btn-primary" disabled={busy}>
        {busy ? 'Saving…' : 'Save settings'}
      </button>
      {current.updatedAt && (
        <p class="muted small">
          Last saved {formatDateTime(current.updatedAt)} by {current.updatedBy}
        </p>
      )}
    </form>
  );
}

const pick = (s: BusinessSettings): Record<Field, string> => ({
  businessName: s.businessName,
  returnAddress: s.returnAddress,
  publicBaseUrl: s.publicBaseUrl,
  paymentInstructions: s.paymentInstructions,
  mailFrom: s.mailFrom,
});

function TokensPanel() {
  const list = useApi('/api/admin/tokens', {}, { admin: true });
  const [role, setRole] = useState<AdminToken['role']>('staff');
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<AdminTokenCreated | null>(null);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const make = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError('');
    try {
      setMade(await ok(adminApi.POST('/api/admin/tokens', { body: { role, label: label.trim() } })));
      setLabel('');
      list.reload();
    } catch (err) {
      setError(onAdminError(err).message);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (t: AdminToken) => {
    try {
      await adminApi.DELETE('/api/admin/tokens/{id}', { params: { path: { id: t.id } } });
      showToast(`${t.label || 'The token'} no longer works`);
      if (made?.id === t.id) setMade(null);
      list.reload();
    } catch (err) {
      showToast(onAdminError(err).message, { kind: 'error' });
    }
  };

  const working = (list.data?.tokens ?? []).filter((t) => t.revokedAt === null);
  return (
    <section class="card" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Helpers’ tokens</h2>
      <p class="muted">
        Give each helper a token of their own. Staff take booth orders, mark orders paid, print, ship and hand over;
        viewers only look. A token works at once, and stops at once when you revoke it.
      </p>
      <form class="field-row" onSubmit={make} noValidate>
        <div class="field">
          <label for="token-label">Whose token</label>
          <input
            id="token-label"
            value={label}
            maxLength={60}
            placeholder="Ana at the booth"
            onInput={(e) => setLabel((e.target as HTMLInputElement).value)}
          />
        </div>
        <div class="field">
          <label for="token-role">Role</label>
          <select
            id="token-role"
            value={role}
            onChange={(e) => setRole((e.target as HTMLSelectElement).value as AdminToken['role'])}
          >
            <option value="staff">Staff (booth helper)</option>
            <option value="viewer">Viewer (reads only)</option>
          </select>
        </div>
        <button type="submit" class="btn btn-secondary" disabled={busy}>
          Make a token
        </button>
      </form>
      {error && (
        <p class="field-error" role="alert">
          {error}
        </p>
      )}
      {made && (
        <Notice kind="ok" role="status">
          <p>
            The token for <strong>{made.label || made.role}</strong>, shown only now: copy it and give it to them. They
            sign in to the dashboard with it.
          </p>
          <p>
            <code class="token" data-testid="new-token">
              {made.token}
            </code>
          </p>
        </Notice>
      )}
      {list.error && <ErrorBox error={list.error} onRetry={list.reload} />}
      {list.data && (
        <ul class="token-list" aria-label="Tokens that work">
          {working.map((t) => (
            <li key={t.id}>
              <span>
                <strong>{t.label || '(no name)'}</strong> · {t.role} · made {formatDateTime(t.createdAt)} ·{' '}
                <span class="mono small">{t.by}</span>
              </span>
              <ConfirmButton
                class="btn btn-ghost btn-small"
                confirmLabel={`Revoke ${t.label || 'this token'}?`}
                onConfirm={() => void revoke(t)}
              >
                Revoke
              </ConfirmButton>
            </li>
          ))}
          {list.data.environment.map((e) => (
            <li key={e.by}>
              <span>
                <strong>From the server’s environment</strong> · {e.role} · <span class="mono small">{e.by}</span>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
