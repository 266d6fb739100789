/** Data loading for pages: one request per URL at a time, answers kept for instant "back". */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, apiUrl, type GetAnswer, type GetParams, type GetPath, getAnswer } from './api.js';
import type { EventConfig } from './api-schema.js';
import { formatDeadline } from './format.js';
import { takePageData } from './page-data.js';

const MAX_CACHED = 60;
const cache = new Map<string, unknown>();

function remember(key: string, value: unknown): void {
  cache.delete(key);
  cache.set(key, value);
  if (cache.size > MAX_CACHED) cache.delete(cache.keys().next().value as string);
}

export function cached<T>(key: string): T | undefined {
  return cache.get(key) as T | undefined;
}

export function forget(prefix: string): void {
  for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
}

export type Loaded<T> = {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
};

/** URLs whose cached answer came with the page's HTML (page-data.ts): current, not asked again. */
const fromPage = new Set<string>();

type LoadOptions = {
  /** Send the admin token; its answers are not kept for "back". */
  admin?: boolean;
  /** Show the previous URL's answer while another URL loads (a list being filtered). */
  keep?: boolean;
};

/**
 * GETs `path` with `params` (path null: nothing to load), typed by the path. A cached answer
 * shows at once and is refreshed in the background, so "back" is instant and still current.
 * An answer the page's HTML carries is used as it is, the first time. Answers are kept by URL
 * (apiUrl), the key the page's HTML uses too.
 */
export function useApi<P extends GetPath>(
  path: P | null,
  params?: GetParams<P>,
  opts: LoadOptions = {},
): Loaded<GetAnswer<P>> {
  type T = GetAnswer<P>;
  const url = path === null ? null : apiUrl(path, params);
  const [state, setState] = useState<{ url: string | null; data?: T; error?: ApiError; loading: boolean }>(() => {
    const carried = url ? takePageData<T>(url) : undefined;
    if (url && carried !== undefined) {
      remember(url, carried);
      fromPage.add(url);
    }
    return { url, data: url ? cached<T>(url) : undefined, loading: url !== null && carried === undefined };
  });
  const [tick, setTick] = useState(0);
  const optsRef = useRef(opts);
  optsRef.current = opts;
  // The request of the current URL (its params are in the URL, the effect's key).
  const requestRef = useRef({ path, params });
  requestRef.current = { path, params };

  useEffect(() => {
    const { path: current, params: currentParams } = requestRef.current;
    if (url === null || current === null) {
      setState({ url, loading: false });
      return;
    }
    if (fromPage.delete(url) && tick === 0) return;
    const ctl = new AbortController();
    setState((s) => ({
      url,
      data: s.url === url || optsRef.current.keep ? (s.data ?? cached<T>(url)) : cached<T>(url),
      loading: true,
    }));
    getAnswer(current, currentParams, { admin: optsRef.current.admin === true, signal: ctl.signal }).then(
      (data) => {
        if (!optsRef.current.admin) remember(url, data);
        setState({ url, data, loading: false });
      },
      (err: unknown) => {
        if (ctl.signal.aborted) return;
        const error =
          err instanceof ApiError ? err : new ApiError(0, 'CLIENT', 'Something went wrong. Please try again.', '');
        setState((s) => ({ url, data: s.url === url ? s.data : undefined, error, loading: false }));
      },
    );
    return () => ctl.abort();
  }, [url, tick]);

  const reload = useCallback(() => setTick((t) => t + 1), []);

  // "Not ready yet" (the photo library is still being indexed after a first start) says when
  // to ask again: do so, a few times, instead of leaving the visitor in front of an error.
  const retries = useRef(0);
  const error = state.url === url ? state.error : undefined;
  useEffect(() => {
    if (error?.status !== 503 || error.retryAfter === undefined || retries.current >= 10) return;
    retries.current += 1;
    const t = setTimeout(reload, Math.min(error.retryAfter, 30) * 1000);
    return () => clearTimeout(t);
  }, [error, reload]);
  const current = state.url === url;
  return {
    data: current ? state.data : url ? cached<T>(url) : undefined,
    error: current ? state.error : undefined,
    loading: current ? state.loading : url !== null,
    reload,
  };
}

export const eventConfigUrl = (code: string): string => apiUrl('/api/event-config', { query: { eventSlug: code } });

export function useEventConfig(code: string | null): Loaded<EventConfig> {
  return useApi(code === null ? null : '/api/event-config', { query: { eventSlug: code ?? '' } });
}

/** Why an event takes no orders, in words (from the API's `closedReason`). */
export function closedMessage(status: { closedReason: EventConfig['closedReason']; deadline: string | null }): string {
  switch (status.closedReason) {
    case 'archived':
      return 'This event is archived: its photos can no longer be ordered.';
    case 'disabled':
      return 'Ordering is turned off for this event right now.';
    case 'deadline': {
      if (!status.deadline) return 'The ordering deadline for this event has passed.';
      const when = formatDeadline(status.deadline);
      return `The ordering deadline for this event passed ${when.startsWith('the end') ? 'at' : 'on'} ${when}.`;
    }
    default:
      return 'Ordering is closed for this event.';
  }
}

/**
 * Runs `fn` once the page has loaded (the first screen's images included: on a phone's slow
 * link, and with six connections to the server at most, nothing else should take one before)
 * and the browser is idle (or soon, where it has no idle callback).
 */
export function whenIdle(fn: () => void): void {
  const w = window as Window & { requestIdleCallback?: (cb: () => void, o?: { timeout: number }) => number };
  const idle = () => (w.requestIdleCallback ? w.requestIdleCallback(fn, { timeout: 2000 }) : setTimeout(fn, 300));
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
}
