/**
 * The service worker, registered only when someone opts into notifications. It shows what the
 * server pushes (`{ title, body, url, tag }`, see src/services/push/payload.ts) and opens `url`
 * on a click. It caches nothing: the app always comes fresh from the server.
 */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: 'Order update', body: event.data ? event.data.text() : '' };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || 'Order update', {
      body: data.body || '',
      tag: data.tag,
      renotify: Boolean(data.tag),
      icon: '/favicon.svg',
      data: { url: data.url || '/' },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // The payload's URL is built from PUBLIC_BASE_URL; its path is what matters (this origin
  // serves it), and a click never leaves this origin whatever the payload says.
  const target = new URL(event.notification.data?.url || '/', self.location.origin);
  const url = new URL(target.pathname + target.search, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      for (const w of windows) {
        if (new URL(w.url).origin === self.location.origin && 'focus' in w) {
          return w.navigate(url).then((c) => (c ?? w).focus());
        }
      }
      return self.clients.openWindow(url);
    }),
  );
});
