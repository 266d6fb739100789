/** One short message at a time, announced to screen readers (the Toast component shows it). */
import { memory } from './store.js';

export type ToastMessage = { id: number; text: string; link?: { href: string; label: string }; kind?: 'ok' | 'error' };

export const toast = memory<ToastMessage | null>(null);

let seq = 0;
let timer: ReturnType<typeof setTimeout> | undefined;

export function showToast(text: string, opts: Omit<ToastMessage, 'id' | 'text'> = {}): void {
  const msg = { id: ++seq, text, ...opts };
  toast.set(msg);
  clearTimeout(timer);
  timer = setTimeout(() => {
    if (toast.get()?.id === msg.id) toast.set(null);
  }, 5000);
}
