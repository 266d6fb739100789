/**
 * Postal address check (docs/contract.md, "Notifications"), as `fastify.addressVerifier`; the
 * verifier is ADDRESS_VERIFIER. `verify` never throws and answers within
 * ADDRESS_VERIFY_TIMEOUT_MS: a remote verifier that is down, slow or rate limited is logged
 * as a warning and the order goes through unverified.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createAddressVerifier } from './factory.js';
import type { AddressVerifier } from './types.js';

declare module 'fastify' {
  interface FastifyInstance {
    addressVerifier: AddressVerifier;
  }
}

async function addressPlugin(fastify: FastifyInstance) {
  const verifier = createAddressVerifier(fastify.config);
  const log = fastify.log.child({ component: 'address', verifier: verifier.name });
  fastify.decorate('addressVerifier', {
    name: verifier.name,
    async verify(address) {
      const check = await verifier.verify(address);
      if (check.status === 'unverified' && verifier.name !== 'off') {
        log.warn({ reason: check.reason }, 'address not verified; the order goes through flagged');
      }
      return check;
    },
  } satisfies AddressVerifier);
}

export default fp(addressPlugin, { name: 'address', dependencies: ['config'] });
