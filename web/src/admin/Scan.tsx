/**
 * The booth's scanner: the camera looks for the QR code on a customer's order page (it holds
 * the order's admin URL) and opens that order. The browser's own BarcodeDetector decodes where
 * it exists (Chrome on Android and macOS, Safari); elsewhere zxing-wasm does, loaded only
 * then, its WebAssembly served by this server like every other asset. The order number can
 * be typed as well, for a phone whose camera is refused or missing.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { Notice, useTitle } from '../components/common.js';
import { navigate } from '../lib/router.js';

type Read = (video: HTMLVideoElement) => Promise<string | null>;
type Decoder = { name: 'BarcodeDetector' | 'zxing-wasm'; read: Read };

const ORDER_NUMBER = /^[A-Z0-9]{1,8}-\d{4,}$/i;
const SCAN_EVERY_MS = 150;

/** The order a scanned text names: an admin order URL (any host: the booth may use another address) or an order number. */
function orderRefFromScan(text: string): string | null {
  const value = text.trim();
  if (ORDER_NUMBER.test(value)) return value.toUpperCase();
  try {
    const m = /^\/admin\/orders\/([^/]+)\/?$/.exec(new URL(value).pathname);
    return m ? decodeURIComponent(m[1] as string) : null;
  } catch {
    return null;
  }
}

type Detector = { detect(source: CanvasImageSource): Promise<{ rawValue: string }[]> };
type DetectorClass = {
  new (opts: { formats: string[] }): Detector;
  getSupportedFormats?: () => Promise<string[]>;
};

async function makeDecoder(): Promise<Decoder> {
  const Native = (window as unknown as { BarcodeDetector?: DetectorClass }).BarcodeDetector;
  const formats: string[] = Native ? await (Native.getSupportedFormats?.() ?? Promise.resolve([])).catch(() => []) : [];
  if (Native && formats.includes('qr_code')) {
    const detector = new Native({ formats: ['qr_code'] });
    return { name: 'BarcodeDetector', read: async (video) => (await detector.detect(video))[0]?.rawValue ?? null };
  }
  const [{ prepareZXingModule, readBarcodes }, { default: wasmUrl }] = await Promise.all([
    import('zxing-wasm/reader'),
    import('zxing-wasm/reader/zxing_reader.wasm?url'),
  ]);
  prepareZXingModule({
    overrides: { locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? wasmUrl : prefix + file) },
  });
  const canvas = document.createElement('canvas');
  const context = canvas.getContext('2d', { willReadFrequently: true });
  return {
    name: 'zxing-wasm',
    read: async (video) => {
      if (!context || !video.videoWidth) return null;
      // At most 800 px wide: a QR code held up to the camera is big, and smaller frames decode faster.
      const scale = Math.min(1, 800 / video.videoWidth);
      canvas.width = Math.round(video.videoWidth * scale);
      canvas.height = Math.round(video.videoHeight * scale);
      context.drawImage(video, 0, 0, canvas.width, canvas.height);
      const image = context.getImageData(0, 0, canvas.width, canvas.height);
      const [found] = await readBarcodes(image, { formats: ['QRCode'], tryHarder: true, maxNumberOfSymbols: 1 });
      return found?.isValid ? found.text : null;
    },
  };
}

type State =
  | { kind: 'starting' }
  | { kind: 'scanning'; decoder: Decoder['name'] }
  | { kind: 'no-camera'; message: string };

export default function Scan() {
  useTitle('Scan an order');
  const video = useRef<HTMLVideoElement>(null);
  const [state, setState] = useState<State>({ kind: 'starting' });
  const [stranger, setStranger] = useState('');
  const [typed, setTyped] = useState('');

  useEffect(() => {
    let stream: MediaStream | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let stopped = false;
    const stop = () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };

    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setState({ kind: 'no-camera', message: 'This browser cannot use a camera here (it needs HTTPS).' });
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' } },
          audio: false,
        });
      } catch (err) {
        const denied = (err as DOMException).name === 'NotAllowedError';
        setState({
          kind: 'no-camera',
          message: denied
            ? 'The camera was not allowed. Allow it in the browser’s site settings, or type the order number.'
            : 'No camera could be opened. Type the order number instead.',
        });
        return;
      }
      if (stopped || !video.current) return stop();
      video.current.srcObject = stream;
      await video.current.play().catch(() => undefined);
      const decoder = await makeDecoder();
      if (stopped) return;
      setState({ kind: 'scanning', decoder: decoder.name });
      const tick = async () => {
        if (stopped) return;
        const text = video.current ? await decoder.read(video.current).catch(() => null) : null;
        if (stopped) return;
        const ref = text === null ? null : orderRefFromScan(text);
        if (ref) {
          stop();
          navigate(`/admin/orders/${encodeURIComponent(ref)}`);
          return;
        }
        if (text !== null) setStranger(text.slice(0, 80));
        timer = setTimeout(tick, SCAN_EVERY_MS);
      };
      void tick();
    })();
    return stop;
  }, []);

  const open = (e: Event) => {
    e.preventDefault();
    const ref = orderRefFromScan(typed) ?? typed.trim();
    if (ref) navigate(`/admin/orders/${encodeURIComponent(ref)}`);
  };

  return (
    <>
      <h1>Scan an order</h1>
      <p class="muted">Hold the QR code on the customer’s order page up to the camera: the order opens by itself.</p>
      <div class="scan-view" data-state={state.kind} data-decoder={state.kind === 'scanning' ? state.decoder : ''}>
        <video ref={video} muted playsInline aria-label="Camera view" />
      </div>
      {state.kind === 'starting' && <p role="status">Starting the camera…</p>}
      {state.kind === 'scanning' && <p role="status">Looking for a QR code…</p>}
      {state.kind === 'no-camera' && <Notice kind="warn">{state.message}</Notice>}
      {stranger && (
        <Notice kind="warn" role="status">
          That QR code is not an order’s ({stranger}).
        </Notice>
      )}
      <form class="scan-type" onSubmit={open}>
        <label for="scan-order">Or type the order number</label>
        <div class="find-row">
          <input
            id="scan-order"
            autoComplete="off"
            placeholder="AX26-0001"
            value={typed}
            onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
          />
          <button type="submit" class="btn btn-primary">
            Open
          </button>
        </div>
      </form>
    </>
  );
}
