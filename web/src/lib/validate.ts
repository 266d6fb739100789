/**
 * The customer fields checked in the browser with the server's own rules (docs/contract.md,
 * "Orders"), so most mistakes are caught before a round trip. The server checks again; its
 * answer wins. At the booth the photographer types them in: the messages speak of "the
 * customer", and the email may be left out.
 */
export type Customer = {
  name: string;
  email: string;
  phone: string;
  street: string;
  city: string;
  state: string;
  zip: string;
};

export type Problems = Partial<Record<keyof Customer, string>>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function phoneProblem(phone: string, required: boolean): string | undefined {
  const p = phone.trim();
  if (p === '') return required ? 'Enter a phone number' : undefined;
  if (!/^[0-9+().\- ]+$/.test(p)) return 'Use digits, spaces and + ( ) - . only';
  const digits = p.replace(/\D/g, '').length;
  if (digits < 7 || digits > 20) return 'A phone number has 7 to 20 digits';
  return undefined;
}

export function customerProblems(
  c: Customer,
  opts: { ship: boolean; phoneRequired: boolean; booth?: boolean },
): Problems {
  const out: Problems = {};
  const name = c.name.trim();
  if (name === '') out.name = opts.booth ? 'Enter the customer’s name' : 'Enter your name';
  else if ([...name].length > 100) out.name = 'At most 100 characters';
  const email = c.email.trim();
  if (email === '') {
    if (!opts.booth) out.email = 'Enter your email address';
  } else if (!EMAIL.test(email) || email.length > 254) out.email = 'Enter a valid email address, like name@example.com';
  const phone = phoneProblem(c.phone, opts.phoneRequired);
  if (phone) out.phone = phone;
  if (opts.ship) {
    if (c.street.trim() === '') out.street = 'Enter the street address';
    if (c.city.trim() === '') out.city = 'Enter the city';
    if (!/^[A-Za-z]{2}$/.test(c.state.trim())) out.state = 'Use the 2-letter state code, e.g. IL';
    if (!/^\d{5}(-?\d{4})?$/.test(c.zip.trim())) out.zip = 'Enter a 5-digit ZIP code';
  }
  return out;
}

/** The request body's field names (as error details name them) → the form's. */
export const FIELD_OF: Record<string, keyof Customer> = {
  customerName: 'name',
  customerEmail: 'email',
  customerPhone: 'phone',
  shippingAddress: 'street',
  city: 'city',
  state: 'state',
  zipCode: 'zip',
  'customerInfo.name': 'name',
  'customerInfo.email': 'email',
  'customerInfo.phone': 'phone',
  'shippingAddress.line1': 'street',
  'shippingAddress.city': 'city',
  'shippingAddress.state': 'state',
  'shippingAddress.zip': 'zip',
};
