/** `/order`: a customer finds an order by its number and the email it was placed with (the home page links here). */
import { useState } from 'preact/hooks';
import { useTitle } from '../components/common.js';
import { navigate } from '../lib/router.js';
import { lookedUpOrders } from '../lib/shop.js';
import { EmailField, useOrderLookup } from './Order.js';

export default function FindOrder() {
  useTitle('Find your order');
  const [number, setNumber] = useState('');
  const [email, setEmail] = useState('');
  const lookup = useOrderLookup(number.trim().toUpperCase(), undefined);
  const submit = (e: Event) => {
    e.preventDefault();
    const n = number.trim().toUpperCase();
    if (!/^[A-Z0-9]+-\d+$/.test(n)) {
      lookup.fail('Type the order number from your receipt, like AX26-0001.');
      return;
    }
    void lookup.look(email.trim(), false).then((found) => {
      if (!found) return;
      lookedUpOrders.update((all) => ({ ...all, [found.orderNumber]: email.trim() }));
      navigate(`/order/${encodeURIComponent(found.orderNumber)}`);
    });
  };
  return (
    <main class="page page-narrow" id="main">
      <h1>Find your order</h1>
      <form onSubmit={submit} noValidate>
        <p class="muted">The order number is on your receipt and on the page you saw after ordering.</p>
        <div class="field">
          <label for="find-order-number">Order number</label>
          <input
            id="find-order-number"
            autoComplete="off"
            value={number}
            onInput={(e) => setNumber((e.target as HTMLInputElement).value)}
          />
        </div>
        <EmailField value={email} onInput={setEmail} error={lookup.error} />
        <button type="submit" class="btn btn-primary" disabled={lookup.busy}>
          {lookup.busy ? 'Looking…' : 'Find my order'}
        </button>
      </form>
      <p>
        <a href="/">Back to the events</a>
      </p>
    </main>
  );
}
