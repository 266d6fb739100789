/**
 * Business settings (docs/contract.md, "Business settings"), as `fastify.businessSettings`.
 * Everything that prints or sends them reads them here, so an owner's save applies at once,
 * on every server process. Registered right after the store. A placeholder return address
 * or an unreachable public address is logged as a warning at start-up.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config/env.js';
import { type BusinessSettings, DEFAULT_PAYMENT_INSTRUCTIONS } from '../../domain/business.js';
import { type BusinessSettingsService, createBusinessSettings } from './settings.js';

declare module 'fastify' {
  interface FastifyInstance {
    businessSettings: BusinessSettingsService;
  }
}

/** The display name of a `Name <address>` mailbox, if it has one. */
function mailboxName(mailbox: string): string | undefined {
  const m = /^\s*"?([^"<]*?)"?\s*</.exec(mailbox);
  return m?.[1]?.trim() || undefined;
}

/** The environment's values: what applies until the owner saves something else. */
function businessDefaults(config: Config): BusinessSettings {
  return {
    businessName: config.BUSINESS_NAME ?? mailboxName(config.MAIL_FROM) ?? 'Convention Photos',
    returnAddress: config.RETURN_ADDRESS,
    publicBaseUrl: config.publicBaseUrl,
    paymentInstructions: config.PAYMENT_INSTRUCTIONS ?? DEFAULT_PAYMENT_INSTRUCTIONS,
    mailFrom: config.MAIL_FROM,
  };
}

async function businessSettingsPlugin(fastify: FastifyInstance) {
  const log = fastify.log.child({ component: 'business-settings' });
  const service = createBusinessSettings(fastify.store.businessSettings, businessDefaults(fastify.config), (err) =>
    log.warn({ err }, 'business settings could not be read; the last ones read still apply'),
  );
  fastify.decorate('businessSettings', service);
  const first = await service.view();
  for (const w of first.warnings)
    log.warn({ field: w.field }, `${w.message} (set it in the dashboard: Events → Business settings)`);
}

export default fp(businessSettingsPlugin, { name: 'business-settings', dependencies: ['config', 'store'] });
