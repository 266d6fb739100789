/**
 * The server's price of a cart (`POST /api/quote`), the same rules as the order itself:
 * line amounts, packages, the early bird or a coupon, shipping, total. The checkout and the
 * booth form show these figures and send them with the order.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, adminApi, api, ok } from './api.js';
import type { Quote } from './api-schema.js';

export type QuoteInput = {
  eventSlug: string;
  lines: { photo: string; size: string; quantity: number }[];
  /** `digital` for digital files alone (nothing to deliver). */
  fulfilment: Quote['fulfillmentType'];
  coupon: string | null;
};

/**
 * The server's figures for the cart as it is now, asked again (after a short pause) whenever
 * it changes. `quote` is only ever the answer for the current input: while a new one is on
 * its way the order can't be placed with stale figures.
 */
export function useQuote(
  input: QuoteInput | null,
  onCouponRefused: (err: ApiError) => void = () => {},
  opts: { admin?: boolean } = {},
) {
  const key = JSON.stringify(input);
  const [state, setState] = useState<{ key: string; quote?: Quote; error?: ApiError }>({ key: '' });
  const [tick, setTick] = useState(0);
  const refused = useRef(onCouponRefused);
  refused.current = onCouponRefused;
  useEffect(() => {
    if (input === null) return;
    const ctl = new AbortController();
    const timer = setTimeout(() => {
      const body = {
        eventSlug: input.eventSlug,
        lines: input.lines,
        fulfillmentType: input.fulfilment,
        ...(input.coupon ? { couponCode: input.coupon } : {}),
      };
      ok((opts.admin ? adminApi : api).POST('/api/quote', { body, signal: ctl.signal })).then(
        (quote) => setState({ key, quote }),
        (err: unknown) => {
          if (ctl.signal.aborted) return;
          if (err instanceof ApiError && err.code === 'COUPON_INVALID') refused.current(err);
          else setState({ key, error: err instanceof ApiError ? err : undefined });
        },
      );
    }, 150);
    return () => {
      clearTimeout(timer);
      ctl.abort();
    };
  }, [key, tick]);
  const current = state.key === key;
  return {
    quote: current ? state.quote : undefined,
    error: current ? state.error : undefined,
    /** The last figures, shown (dimmed) while new ones load. */
    shown: state.quote,
    reload: () => setTick((n) => n + 1),
  };
}
