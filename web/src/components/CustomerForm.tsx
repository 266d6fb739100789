/**
 * Name, contact, ship-or-pickup and address fields, with their error messages; shared by the
 * checkout (the customer types them: "Your details") and booth orders (the photographer types
 * them for a customer: `booth`, where the email is optional).
 */
import type { Customer, Problems } from '../lib/validate.js';

export type Fulfilment = 'ship' | 'pickup';

function Field({
  id,
  label,
  value,
  problem,
  onInput,
  type = 'text',
  autoComplete,
  inputMode,
  hint,
  maxLength,
  required = true,
  markRequired = false,
  prefix,
}: {
  id: keyof Customer;
  label: string;
  value: string;
  problem?: string | undefined;
  onInput: (v: string) => void;
  type?: 'text' | 'email' | 'tel';
  autoComplete?: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric';
  hint?: string;
  maxLength?: number;
  required?: boolean;
  /** Say "(required)" in the label: where people expect the field to be optional (a phone number). */
  markRequired?: boolean;
  prefix: string;
}) {
  const fid = `${prefix}-${id}`;
  const describedBy = [problem ? `${fid}-error` : '', hint ? `${fid}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field field-${id}`}>
      <label for={fid}>
        {label}
        {!required && <span class="muted"> (optional)</span>}
        {required && markRequired && <span class="muted"> (required)</span>}
      </label>
      {hint && (
        <p id={`${fid}-hint`} class="hint">
          {hint}
        </p>
      )}
      <input
        id={fid}
        name={id}
        // one of text/email/tel (Preact's input types are a union keyed on `type`)
        type={type as 'text'}
        value={value}
        autoComplete={autoComplete}
        inputMode={inputMode}
        maxLength={maxLength}
        required={required}
        aria-invalid={problem ? true : undefined}
        aria-describedby={describedBy || undefined}
        onInput={(e) => onInput((e.target as HTMLInputElement).value)}
      />
      {problem && (
        <p id={`${fid}-error`} class="field-error">
          {problem}
        </p>
      )}
    </div>
  );
}

export function CustomerForm({
  value,
  onChange,
  fulfilment,
  onFulfilment,
  problems,
  shippingLabel,
  phoneRequired,
  prefix = 'c',
  delivery = true,
  booth = false,
}: {
  value: Customer;
  onChange: (c: Customer) => void;
  fulfilment: Fulfilment;
  onFulfilment: (f: Fulfilment) => void;
  problems: Problems;
  shippingLabel: string;
  phoneRequired: boolean;
  prefix?: string;
  /** False when nothing is shipped (digital files only): the delivery choice and address are left out. */
  delivery?: boolean;
  booth?: boolean;
}) {
  const set = (k: keyof Customer) => (v: string) => onChange({ ...value, [k]: v });
  return (
    <>
      <fieldset class="form-section">
        <legend>{booth ? 'Customer' : 'Your details'}</legend>
        <Field
          prefix={prefix}
          id="name"
          label="Name"
          value={value.name}
          problem={problems.name}
          onInput={set('name')}
          autoComplete="name"
          maxLength={100}
        />
        <Field
          prefix={prefix}
          id="email"
          label="Email"
          type="email"
          inputMode="email"
          value={value.email}
          problem={problems.email}
          onInput={set('email')}
          autoComplete={booth ? 'off' : 'email'}
          hint={booth ? 'The receipt goes here; leave it empty if the customer wants none.' : 'Your receipt goes here.'}
          required={!booth}
          maxLength={254}
        />
        <Field
          prefix={prefix}
          id="phone"
          label="Phone"
          type="tel"
          inputMode="tel"
          value={value.phone}
          problem={problems.phone}
          onInput={set('phone')}
          autoComplete={booth ? 'off' : 'tel'}
          required={phoneRequired}
          markRequired
          hint={
            booth
              ? 'In case there is a question about the order.'
              : phoneRequired
                ? 'We need it to reach you about your order; it is used for nothing else.'
                : 'Only used if there is a question about your order.'
          }
          maxLength={30}
        />
      </fieldset>
      {delivery && (
        <fieldset class="form-section">
          <legend>Delivery</legend>
          <div class="choice-list">
            <label class={`choice ${fulfilment === 'ship' ? 'is-on' : ''}`}>
              <input
                type="radio"
                name={`${prefix}-fulfilment`}
                value="ship"
                checked={fulfilment === 'ship'}
                onChange={() => onFulfilment('ship')}
              />
              <span>
                <strong>{booth ? 'Ship to the customer' : 'Ship to me'}</strong>
                <span class="muted"> {shippingLabel}</span>
              </span>
            </label>
            <label class={`choice ${fulfilment === 'pickup' ? 'is-on' : ''}`}>
              <input
                type="radio"
                name={`${prefix}-fulfilment`}
                value="pickup"
                checked={fulfilment === 'pickup'}
                onChange={() => onFulfilment('pickup')}
              />
              <span>
                <strong>Pick up at the booth</strong>
                <span class="muted"> free</span>
              </span>
            </label>
          </div>
          {fulfilment === 'ship' && (
            <div class="address">
              <Field
                prefix={prefix}
                id="street"
                label="Street address"
                value={value.street}
                problem={problems.street}
                onInput={set('street')}
                autoComplete="street-address"
                maxLength={200}
              />
              <Field
                prefix={prefix}
                id="city"
                label="City"
                value={value.city}
                problem={problems.city}
                onInput={set('city')}
                autoComplete="address-level2"
                maxLength={100}
              />
              <div class="field-row">
                <Field
                  prefix={prefix}
                  id="state"
                  label="State"
                  value={value.state}
                  problem={problems.state}
                  onInput={(v) => set('state')(v.toUpperCase())}
                  autoComplete="address-level1"
                  maxLength={2}
                />
                <Field
                  prefix={prefix}
                  id="zip"
                  label="ZIP code"
                  value={value.zip}
                  problem={problems.zip}
                  onInput={set('zip')}
                  autoComplete="postal-code"
                  inputMode="numeric"
                  maxLength={10}
                />
              </div>
            </div>
          )}
        </fieldset>
      )}
    </>
  );
}
