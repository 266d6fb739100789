import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { build } from '../../helpers/build.js';
import { docxParagraphs, labelOrder } from '../../support/labels-fixtures.js';

describe('labels plugin', () => {
  test('decorates fastify.labels, printing RETURN_ADDRESS (\\n separates lines)', async (t) => {
    const app = await build(t, { env: { RETURN_ADDRESS: 'Kawaii Photo Booth\\nPO Box 42\\nLos Angeles, CA 90012' } });
    const order = labelOrder({ orderNumber: 'AX26-0042' });

    const png = await app.labels.png(order);
    expect(png).toMatchObject({ filename: 'label-AX26-0042.png', contentType: 'image/png' });
    expect(await sharp(png.content).metadata()).toMatchObject({ width: 1800, height: 1200 });

    const docx = await app.labels.docx(order);
    expect(docx).toMatchObject({
      filename: 'label-AX26-0042.docx',
      contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    });
    const paragraphs = docxParagraphs(docx.content);
    expect(paragraphs.slice(1, 5)).toEqual(['FROM', 'Kawaii Photo Booth', 'PO Box 42', 'Los Angeles, CA 90012']);
    expect(paragraphs[0]).toMatch(/^AX26-0042 · /);
  });

  test('renders labels concurrently', async (t) => {
    const app = await build(t);
    const orders = Array.from({ length: 6 }, (_, i) =>
      labelOrder({ orderNumber: `AX25-${String(i + 1).padStart(4, '0')}` }),
    );
    const files = await Promise.all(orders.flatMap((o) => [app.labels.png(o), app.labels.docx(o)]));
    expect(files.map((f) => f.filename)).toEqual(
      orders.flatMap((o) => [`label-${o.orderNumber}.png`, `label-${o.orderNumber}.docx`]),
    );
    for (const f of files) expect(f.content.length).toBeGreaterThan(1000);
  });
});
