/**
 * The order's QR code for the booth: it holds the order's dashboard address, which the
 * photographer's scanner (Scan in the dashboard) opens. It gives nothing away: the dashboard
 * asks for the admin token. Drawn as SVG by the `qrcode` package.
 */

import { useEffect, useState } from 'preact/hooks';
import QRCode from 'qrcode';

function orderAdminUrl(orderNumber: string): string {
  return `${location.origin}/admin/orders/${encodeURIComponent(orderNumber)}`;
}

export function OrderQr({ orderNumber, pickup }: { orderNumber: string; pickup: boolean }) {
  const [svg, setSvg] = useState('');
  const url = orderAdminUrl(orderNumber);
  useEffect(() => {
    let live = true;
    QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 })
      .then((s) => live && setSvg(s))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [url]);
  if (!svg) return null;
  return (
    <section class="section order-qr" aria-labelledby="qr-title">
      <h2 id="qr-title">{pickup ? 'At the booth' : 'Your order code'}</h2>
      <p class="muted">
        {pickup
          ? 'Show this code at the booth to collect your prints: it opens your order straight away.'
          : 'Show this code at the booth if you have a question about your order.'}
      </p>
      {/* The SVG is made here, from our own URL, by the qrcode package: no outside markup. */}
      <div
        class="order-qr-code"
        role="img"
        aria-label={`QR code of order ${orderNumber}`}
        data-url={url}
        dangerouslySetInnerHTML={{ __html: svg }}
      />
    </section>
  );
}
