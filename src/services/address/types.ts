/** Postal address check (docs/contract.md, "Notifications"), decorated as `fastify.addressVerifier`. */
export type PostalAddress = { line1: string; city: string; state: string; zip: string };

export type AddressCheck =
  /** Deliverable; `address` is the standardised form to store and print. */
  | { status: 'valid'; address: PostalAddress }
  /** Definitely undeliverable: the order is refused with 400 ADDRESS_INVALID. */
  | { status: 'invalid'; reason: string; field?: keyof PostalAddress }
  /** The verifier is off, down, rate limited or slower than the budget: let it through, flagged. */
  | { status: 'unverified'; reason: string };

export interface AddressVerifier {
  readonly name: 'local' | 'usps' | 'smarty' | 'off';
  /** Never throws and never takes longer than ADDRESS_VERIFY_TIMEOUT_MS. */
  verify(address: PostalAddress): Promise<AddressCheck>;
}
