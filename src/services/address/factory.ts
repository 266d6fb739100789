/** The verifier ADDRESS_VERIFIER names, built from the configuration (no Fastify). */
import type { Config } from '../../config/env.js';
import { createLocalVerifier, createOffVerifier } from './local.js';
import { createSmartyVerifier } from './smarty.js';
import type { AddressVerifier } from './types.js';
import { createUspsVerifier } from './usps.js';

type VerifierConfig = Pick<
  Config,
  | 'ADDRESS_VERIFIER'
  | 'ADDRESS_VERIFY_TIMEOUT_MS'
  | 'USPS_BASE_URL'
  | 'USPS_CLIENT_ID'
  | 'USPS_CLIENT_SECRET'
  | 'SMARTY_BASE_URL'
  | 'SMARTY_AUTH_ID'
  | 'SMARTY_AUTH_TOKEN'
>;

export function createAddressVerifier(config: VerifierConfig): AddressVerifier {
  switch (config.ADDRESS_VERIFIER) {
    case 'off':
      return createOffVerifier();
    case 'usps':
      // env.ts refuses to start without the credentials; the `?? ''` only satisfies the types.
      return createUspsVerifier({
        baseUrl: config.USPS_BASE_URL,
        clientId: config.USPS_CLIENT_ID ?? '',
        clientSecret: config.USPS_CLIENT_SECRET ?? '',
        timeoutMs: config.ADDRESS_VERIFY_TIMEOUT_MS,
      });
    case 'smarty':
      return createSmartyVerifier({
        baseUrl: config.SMARTY_BASE_URL,
        authId: config.SMARTY_AUTH_ID ?? '',
        authToken: config.SMARTY_AUTH_TOKEN ?? '',
        timeoutMs: config.ADDRESS_VERIFY_TIMEOUT_MS,
      });
    default:
      return createLocalVerifier();
  }
}
