/**
 * A child process for the SQLite crash test: creates orders in a loop and prints
 * `<orderNumber> <id>` for each one as soon as `createOrder` has resolved (acknowledged).
 * The test kills it with SIGKILL and checks every printed order is in the file.
 *
 *   tsx test/support/store-sqlite-writer.ts <path/to/orders.db>
 */
import { openStore } from '../../src/services/store/store.js';
import { newOrder } from './store-fixtures.js';

const file = process.argv[2];
if (!file) throw new Error('usage: store-sqlite-writer.ts <orders.db>');
const store = await openStore({ engine: 'sqlite', file });
process.stdout.write('ready\n');
for (let i = 0; ; i++) {
  const order = await store.orders.create(newOrder({ customerName: `Customer ${i}` }), {
    by: 'customer',
    mail: [{ kind: 'receipt', orderId: null, payload: { i } }],
  });
  process.stdout.write(`${order.orderNumber} ${order.id}\n`);
}
