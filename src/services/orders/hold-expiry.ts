/**
 * The hold-expiry job (docs/contract.md, "Notifications"): held high-value orders whose confirmation link lapsed become
 * `cancelled` (they then show in the cancelled list and count as cancelled). Runs once
 * at start-up (holds that lapsed while the service was down) and then every `intervalMs` on
 * an unref'd timer, so it never keeps the process alive; stopped on close. Runs never overlap.
 */

import type { OrderRecord } from '../../domain/order.js';
import type { Logger } from '../../lib/logger.js';
import type { OrdersPort } from '../store/ports/orders.js';

const HOLD_EXPIRY_INTERVAL_MS = 60_000;

export class HoldExpiryJob {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<OrderRecord[]> | undefined;

  constructor(
    private readonly opts: {
      orders: Pick<OrdersPort, 'expireHolds'>;
      log: Logger;
      intervalMs?: number;
      now?: () => Date;
    },
  ) {}

  start(): void {
    if (this.timer) return;
    void this.runOnce();
    this.timer = setInterval(() => void this.runOnce(), this.opts.intervalMs ?? HOLD_EXPIRY_INTERVAL_MS);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Cancels every lapsed hold now; resolves with them. Errors are logged, never thrown. */
  runOnce(): Promise<OrderRecord[]> {
    this.running ??= this.expire().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Resolves when a run under way has finished (close). */
  async idle(): Promise<void> {
    await this.running;
  }

  private async expire(): Promise<OrderRecord[]> {
    try {
      const expired = await this.opts.orders.expireHolds((this.opts.now ?? (() => new Date()))());
      if (expired.length > 0) {
        this.opts.log.info(
          { count: expired.length, orders: expired.map((o) => o.orderNumber) },
          'unconfirmed high-value orders cancelled (confirmation link expired)',
        );
      }
      return expired;
    } catch (err) {
      this.opts.log.error({ err }, 'hold expiry failed; retrying on the next run');
      return [];
    }
  }
}
