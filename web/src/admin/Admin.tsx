/**
 * The photographer's dashboard: sign-in with the admin token, then orders (lists, search,
 * detail, status, shipping, labels), booth orders, event settings, coupons, sales and the
 * owner's settings (business details, helpers' tokens). Each role sees only what it may use.
 */
import { useEffect, useState } from 'preact/hooks';
import { Notice, useTitle } from '../components/common.js';
import { BellIcon } from '../components/icons.js';
import { type ApiError, api } from '../lib/api.js';
import { pushSupported, subscribePush } from '../lib/push.js';
import { navigate } from '../lib/router.js';
import { useStore } from '../lib/store.js';
import { showToast } from '../lib/toast.js';
import './admin.css';
import BoothOrder from './BoothOrder.js';
import Coupons from './Coupons.js';
import EventSettings from './EventSettings.js';
import MirrorPanel from './Mirror.js';
import OrderDetail from './OrderDetail.js';
import Orders from './Orders.js';
import PrintQueue from './PrintQueue.js';
import { may, useAdminMe } from './role.js';
import Sales from './Sales.js';
import Scan from './Scan.js';
import Settings, { SettingsBanner } from './Settings.js';
import { adminToken, signOut, signOutReason } from './session.js';
import Takedowns from './Takedowns.js';

/** Each tab with the route its role must be able to call (the server's table: GET /api/admin/me). */
const TABS = [
  {
    href: '/admin',
    label: 'Orders',
    need: 'GET /api/orders/pending',
    match: (p: string[]) => p.length === 0 || p[0] === 'orders',
  },
  {
    href: '/admin/print',
    label: 'Print queue',
    need: 'GET /api/print-queue',
    match: (p: string[]) => p[0] === 'print',
  },
  { href: '/admin/booth', label: 'Booth', need: 'POST /api/orders/create', match: (p: string[]) => p[0] === 'booth' },
  { href: '/admin/scan', label: 'Scan', need: 'GET /api/orders/:id', match: (p: string[]) => p[0] === 'scan' },
  // Every role: the intake panel reads; the card sheet (staff) and the settings (owner) show by role.
  { href: '/admin/events', label: 'Events', need: 'GET /api/admin/intake', match: (p: string[]) => p[0] === 'events' },
  { href: '/admin/coupons', label: 'Coupons', need: 'GET /api/coupons', match: (p: string[]) => p[0] === 'coupons' },
  {
    href: '/admin/sales',
    label: 'Sales',
    need: 'GET /api/orders/summary/breakdown',
    match: (p: string[]) => p[0] === 'sales',
  },
  {
    href: '/admin/takedowns',
    label: 'Takedowns',
    need: 'GET /api/takedowns',
    match: (p: string[]) => p[0] === 'takedowns',
  },
  {
    href: '/admin/settings',
    label: 'Settings',
    need: 'GET /api/settings',
    match: (p: string[]) => p[0] === 'settings',
  },
];

export default function Admin({ path, query }: { path: string[]; query: URLSearchParams }) {
  const token = useStore(adminToken);
  // A notification's link: /admin?order=<orderNumber>.
  const fromPush = query.get('order');
  useEffect(() => {
    if (fromPush) navigate(`/admin/orders/${encodeURIComponent(fromPush)}`, { replace: true });
  }, [fromPush]);

  const me = useAdminMe(token);
  if (!token) return <SignIn />;
  const [first, second] = path;
  let view = <Orders query={query} />;
  if (first === 'orders' && second) view = <OrderDetail key={second} orderRef={second} />;
  else if (first === 'print') view = <PrintQueue />;
  else if (first === 'booth') view = <BoothOrder />;
  else if (first === 'scan') view = <Scan />;
  else if (first === 'events') view = <EventSettings />;
  else if (first === 'sales') view = <Sales />;
  else if (first === 'coupons') view = <Coupons />;
  else if (first === 'takedowns') view = <Takedowns />;
  else if (first === 'settings') view = <Settings />;
  else if (first !== undefined && first !== 'orders') view = <Notice>Unknown page.</Notice>;

  return (
    <div class="admin">
      <nav class="admin-tabs" aria-label="Dashboard">
        <ul>
          {/* Only once the role is known: a tab the role can't use never shows, not even for a moment. */}
          {TABS.filter((t) => may(me, t.need)).map((t) => (
            <li key={t.href}>
              <a href={t.href} aria-current={t.match(path) ? 'page' : undefined}>
                {t.label}
              </a>
            </li>
          ))}
        </ul>
        <div class="admin-tools">
          {me && (
            <span class="admin-role" title={`The history names you ${me.by}`}>
              Role: {me.role}
            </span>
          )}
          <AdminPush />
          <button type="button" class="btn btn-ghost btn-small" onClick={() => signOut()}>
            Sign out
          </button>
        </div>
      </nav>
      <main class="page page-wide" id="main">
        <SettingsBanner />
        <MirrorPanel />
        {view}
      </main>
    </div>
  );
}

function AdminPush() {
  const [busy, setBusy] = useState(false);
  if (!pushSupported()) return null;
  const on = async () => {
    setBusy(true);
    try {
      showToast(await subscribePush({}, true));
    } catch (err) {
      showToast((err as Error).message, { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <button
      type="button"
      class="btn btn-ghost btn-small btn-icon-text"
      onClick={on}
      disabled={busy}
      title="Get a notification for every new order on this device"
    >
      <BellIcon size={18} /> Notify me
    </button>
  );
}

function SignIn() {
  useTitle('Sign in');
  const reason = useStore(signOutReason);
  const [value, setValue] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const token = value.trim();
    if (token === '') {
      setError('Paste the admin token.');
      return;
    }
    setBusy(true);
    setError('');
    try {
      await api.GET('/api/orders/summary', { headers: { Authorization: `Bearer ${token}` } });
      signOutReason.set('');
      adminToken.set(token);
    } catch (err) {
      const e2 = err as ApiError;
      setError(
        e2.status === 401
          ? 'That token is not valid.'
          : e2.status === 429
            ? `Too many wrong tokens from this address. Try again in ${Math.ceil((e2.retryAfter ?? 900) / 60)} minutes.`
            : e2.message,
      );
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="page page-narrow" id="main">
      <h1>Photographer sign-in</h1>
      {reason && <Notice kind="warn">{reason}</Notice>}
      <form class="card" onSubmit={submit} noValidate>
        <div class="field">
          <label for="admin-token">Admin token</label>
          <p id="admin-token-hint" class="hint">
            From ADMIN_TOKENS, or the token the server made at its first start (<code>cat data/admin-token</code> in the
            server's folder shows it). Kept for this browser tab only.
          </p>
          <input
            id="admin-token"
            type="password"
            autoComplete="current-password"
            value={value}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? 'admin-token-error admin-token-hint' : 'admin-token-hint'}
            onInput={(e) => setValue((e.target as HTMLInputElement).value)}
          />
          {error && (
            <p id="admin-token-error" class="field-error" role="alert">
              {error}
            </p>
          )}
        </div>
        <button type="submit" class="btn btn-primary" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
