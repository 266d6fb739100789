/**
 * Small observable values kept on the device (localStorage) or for the tab (sessionStorage).
 * Storage can be missing or full (private browsing): the value then lives in memory only.
 */
import { useEffect, useState } from 'preact/hooks';

export type Store<T> = {
  get(): T;
  set(value: T): void;
  update(fn: (value: T) => T): void;
  subscribe(fn: () => void): () => void;
};

function storageOf(kind: 'local' | 'session'): Storage | undefined {
  try {
    return kind === 'local' ? window.localStorage : window.sessionStorage;
  } catch {
    return undefined;
  }
}

export function persistent<T>(
  key: string,
  initial: T,
  opts: { kind?: 'local' | 'session'; valid?: (v: unknown) => v is T } = {},
): Store<T> {
  const storage = storageOf(opts.kind ?? 'local');
  const read = (): T => {
    try {
      const raw = storage?.getItem(key);
      if (raw == null) return initial;
      const parsed: unknown = JSON.parse(raw);
      return !opts.valid || opts.valid(parsed) ? (parsed as T) : initial;
    } catch {
      return initial;
    }
  };
  let value = read();
  const subs = new Set<() => void>();
  const notify = () => {
    for (const fn of subs) fn();
  };
  // Another tab changed it (a photo added to the cart there).
  if (opts.kind !== 'session') {
    window.addEventListener('storage', (e) => {
      if (e.key === key) {
        value = read();
        notify();
      }
    });
  }
  const store: Store<T> = {
    get: () => value,
    set(next) {
      value = next;
      try {
        storage?.setItem(key, JSON.stringify(next));
      } catch {
        // full or unavailable: keep it in memory
      }
      notify();
    },
    update(fn) {
      store.set(fn(value));
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
  return store;
}

export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(store.get);
  useEffect(() => {
    setValue(store.get());
    return store.subscribe(() => setValue(store.get()));
  }, [store]);
  return value;
}

/** A value for this page load only. */
export function memory<T>(initial: T): Store<T> {
  let value = initial;
  const subs = new Set<() => void>();
  const store: Store<T> = {
    get: () => value,
    set(next) {
      value = next;
      for (const fn of subs) fn();
    },
    update(fn) {
      store.set(fn(value));
    },
    subscribe(fn) {
      subs.add(fn);
      return () => subs.delete(fn);
    },
  };
  return store;
}
