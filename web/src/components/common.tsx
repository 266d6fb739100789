/** Small building blocks shared by every page. */
import type { ComponentChildren, ComponentType } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiError } from '../lib/api.js';
import { useStore } from '../lib/store.js';
import { toast } from '../lib/toast.js';

export function Spinner({ label = 'Loading…' }: { label?: string }) {
  return (
    <div class="spinner" role="status">
      <span class="spinner-dot" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}

export function ErrorBox({ error, onRetry }: { error: ApiError | Error; onRetry?: () => void }) {
  return (
    <div class="notice notice-error" role="alert">
      <p>{error.message}</p>
      {onRetry && (
        <button type="button" class="btn btn-secondary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice({
  kind = 'info',
  children,
  role,
}: {
  kind?: 'info' | 'warn' | 'error' | 'ok';
  children: ComponentChildren;
  role?: 'status' | 'alert';
}) {
  return (
    <div class={`notice notice-${kind}`} role={role}>
      {children}
    </div>
  );
}

/** Sets the document title (and moves focus to the page heading on navigation, for screen readers). */
export function useTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Convention Photos` : 'Convention Photos';
  }, [title]);
}

export function Toast() {
  const msg = useStore(toast);
  return (
    <div class="toast-region" aria-live="polite">
      {msg && (
        <div class={`toast ${msg.kind === 'error' ? 'toast-error' : ''}`} key={msg.id}>
          <span>{msg.text}</span>
          {msg.link && (
            <a class="toast-link" href={msg.link.href}>
              {msg.link.label}
            </a>
          )}
        </div>
      )}
    </div>
  );
}

/** A page loaded on first use, so the gallery's first view downloads only the gallery. */
export function lazy<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  let Loaded: ComponentType<P> | undefined;
  let promise: Promise<void> | undefined;
  return function Lazy(props: P) {
    const [, setReady] = useState(false);
    const [error, setError] = useState<Error | null>(null);
    useEffect(() => {
      if (Loaded) return;
      let alive = true;
      promise ??= load().then((m) => {
        Loaded = m.default;
      });
      promise.then(
        () => alive && setReady(true),
        (err: Error) => {
          promise = undefined;
          if (alive) setError(err);
        },
      );
      return () => {
        alive = false;
      };
    }, []);
    if (Loaded) return <Loaded {...props} />;
    if (error) {
      return (
        <main class="page">
          <ErrorBox
            error={new Error('This page could not be loaded. Check your connection.')}
            onRetry={() => location.reload()}
          />
        </main>
      );
    }
    return (
      <main class="page">
        <Spinner />
      </main>
    );
  };
}

/** A quantity with − and + buttons that are big enough for thumbs. */
export function QuantityInput({
  value,
  onChange,
  label,
  id,
  max = 99,
}: {
  value: number;
  onChange: (n: number) => void;
  label: string;
  id: string;
  max?: number;
}) {
  const set = (n: number) => onChange(Math.max(1, Math.min(max, Number.isFinite(n) ? Math.round(n) : 1)));
  return (
    <div class="qty">
      <button type="button" class="btn btn-icon" aria-label={`Fewer (${label})`} onClick={() => set(value - 1)}>
        −
      </button>
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={1}
        max={max}
        value={value}
        aria-label={label}
        onChange={(e) => set(Number((e.target as HTMLInputElement).value))}
      />
      <button type="button" class="btn btn-icon" aria-label={`More (${label})`} onClick={() => set(value + 1)}>
        +
      </button>
    </div>
  );
}

/** A two-step button for actions that cannot be undone: the first press asks, the second acts. */
export function ConfirmButton({
  children,
  confirmLabel,
  onConfirm,
  class: cls = 'btn btn-danger',
  disabled,
}: {
  children: ComponentChildren;
  confirmLabel: string;
  onConfirm: () => void;
  class?: string;
  disabled?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const ref = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (!asking) return;
    const t = setTimeout(() => setAsking(false), 6000);
    return () => clearTimeout(t);
  }, [asking]);
  const onClick = () => {
    if (asking) {
      setAsking(false);
      onConfirm();
    } else {
      setAsking(true);
    }
  };
  return (
    <button type="button" ref={ref} class={cls} onClick={onClick} disabled={disabled} aria-live="polite">
      {asking ? confirmLabel : children}
    </button>
  );
}
