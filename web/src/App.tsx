/**
 * The app's frame (header, toast, footer) and its pages by path. The gallery and favourites
 * are in the first download; checkout, the order page and the admin dashboard load on first use.
 */
import { useEffect } from 'preact/hooks';
import { lazy, Toast } from './components/common.js';
import { CameraIcon, CartIcon, HeartIcon, QrIcon } from './components/icons.js';
import { eventPath, navigate, openedFromList, segments, useLocation } from './lib/router.js';
import { cart, cartCount, favourites } from './lib/shop.js';
import { useStore } from './lib/store.js';
import Events from './pages/Events.js';
import Favourites from './pages/Favourites.js';
import Gallery from './pages/Gallery.js';
import NotFound from './pages/NotFound.js';

const Checkout = lazy(() => import('./pages/Checkout.js'));
const OrderPage = lazy(() => import('./pages/Order.js'));
const FindOrder = lazy(() => import('./pages/FindOrder.js'));
const Admin = lazy(() => import('./admin/Admin.js'));
const MyPhotos = lazy(() => import('./pages/MyPhotos.js'));
const MyCode = lazy(() => import('./pages/MyCode.js'));

function Page({ path, query }: { path: string; query: URLSearchParams }) {
  const parts = segments(path);
  if (!parts) return <NotFound />;
  const [first, ...rest] = parts;
  if (first === undefined) return <Events />;
  switch (first) {
    case 'event':
      if (rest.length === 0) return <Events />;
      if (rest.length === 3 && rest[1] === 'photo') {
        // A photo's link: the list it was opened from (this tab's history says), else its event.
        const code = rest[0] as string;
        const list = openedFromList() ?? eventPath(code);
        const [, , day, session] = segments(list) ?? [];
        return <Gallery key={list} code={code} day={day} session={session} photo={rest[2]} />;
      }
      if (rest.length <= 3) {
        const [code, day, session] = rest as [string, string?, string?];
        return <Gallery key={path} code={code} day={day} session={session} />;
      }
      return <NotFound />;
    case 'favorites':
      return rest.length === 0 ? <Favourites /> : <NotFound />;
    case 'checkout':
      return rest.length === 0 ? <Checkout /> : <NotFound />;
    case 'order':
      if (rest.length === 0) return <FindOrder />;
      return rest.length === 1 ? (
        <OrderPage key={rest[0]} orderNumber={rest[0] as string} query={query} />
      ) : (
        <NotFound />
      );
    case 'admin':
      return <Admin path={rest} query={query} />;
    case 'code':
      return rest.length === 0 ? <MyCode /> : <NotFound />;
    case 'me':
      return rest.length === 1 ? <MyPhotos key={rest[0]} code={rest[0] as string} /> : <NotFound />;
    default:
      return <NotFound />;
  }
}

function Header({ admin }: { admin: boolean }) {
  const lines = useStore(cart);
  const favs = useStore(favourites);
  const n = cartCount(lines);
  return (
    <header class="topbar">
      <div class="topbar-inner">
        <a class="brand" href={admin ? '/admin' : '/'}>
          <CameraIcon /> <span>Convention Photos{admin ? ' · Admin' : ''}</span>
        </a>
        {!admin && (
          <nav class="topnav" aria-label="Your photos">
            <a href="/code" class="topnav-link" aria-label="My photo code">
              <QrIcon />
              <span class="topnav-label" aria-hidden="true">
                My code
              </span>
            </a>
            <a href="/favorites" class="topnav-link" aria-label={`Favourites, ${favs.length}`}>
              <HeartIcon filled={favs.length > 0} />
              <span class="topnav-count" aria-hidden="true">
                {favs.length}
              </span>
            </a>
            <a
              href="/checkout"
              class="topnav-link topnav-cart"
              aria-label={`Cart, ${n} ${n === 1 ? 'print' : 'prints'}`}
            >
              <CartIcon />
              <span class="topnav-label" aria-hidden="true">
                Cart
              </span>
              <span class="topnav-count" aria-hidden="true">
                {n}
              </span>
            </a>
          </nav>
        )}
      </div>
    </header>
  );
}

export function App() {
  const loc = useLocation();
  const admin = loc.path === '/admin' || loc.path.startsWith('/admin/');

  // Links from mails and notifications: `/?feedback=<order>` (receipt) and `/?order=<order>` (push).
  useEffect(() => {
    if (loc.path !== '/') return;
    const feedback = loc.query.get('feedback');
    const order = loc.query.get('order');
    if (feedback) navigate(`/order/${encodeURIComponent(feedback)}?feedback=1#feedback`, { replace: true });
    else if (order) navigate(`/order/${encodeURIComponent(order)}`, { replace: true });
  }, [loc]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header admin={admin} />
      <Page path={loc.path} query={loc.query} />
      <Toast />
      {!admin && (
        <footer class="footer">
          <p>
            Prints are made from the full-resolution photo, without the watermark.{' '}
            <a href="/admin">Photographer sign-in</a>
          </p>
        </footer>
      )}
    </>
  );
}
