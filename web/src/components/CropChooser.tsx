/**
 * Where a print is cropped: the photo with a frame of the print's shape over it, dragged (or
 * moved with the arrow keys) to the part the customer wants on paper. An 8x10 from a 3:2
 * photo loses a strip on one side; this shows which, before anyone pays for it.
 *
 * The frame is always the largest of the print's shape inside the photo, so it spans the
 * photo's whole width or whole height and moves along one axis only: a slider, for assistive
 * technology. The value is the frame's centre as fractions of the photo (what the server
 * crops around, docs/contract.md "Fulfilment"); the same arithmetic as src/domain/prints.ts.
 */
import { useRef, useState } from 'preact/hooks';

export type Crop = { x: number; y: number };
const CENTRE: Crop = { x: 0.5, y: 0.5 };

/** The frame as fractions of the photo, and the axis it moves along (null: it fills the photo). */
function frameOf(photoAspect: number, inches: readonly [number, number], crop: Crop) {
  const [short, long] = inches;
  const printAspect = photoAspect >= 1 ? long / short : short / long;
  const width = photoAspect > printAspect ? printAspect / photoAspect : 1;
  const height = photoAspect > printAspect ? 1 : photoAspect / printAspect;
  const clamp = (v: number, size: number) => Math.min(1 - size, Math.max(0, v - size / 2));
  const axis: 'x' | 'y' | null = width < 0.995 ? 'x' : height < 0.995 ? 'y' : null;
  return { left: clamp(crop.x, width), top: clamp(crop.y, height), width, height, axis };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

/** The frame's place over the photo, in percent. */
const placed = (f: { left: number; top: number; width: number; height: number }) => ({
  left: `${f.left * 100}%`,
  top: `${f.top * 100}%`,
  width: `${f.width * 100}%`,
  height: `${f.height * 100}%`,
});

export function CropChooser({
  id,
  thumb,
  label,
  size,
  inches,
  value,
  onChange,
}: {
  id: string;
  thumb: string;
  /** "Photo #12", for the slider's name. */
  label: string;
  size: string;
  inches: readonly [number, number];
  value: Crop | undefined;
  onChange: (crop: Crop | undefined) => void;
}) {
  const [aspect, setAspect] = useState<number | null>(null);
  const stage = useRef<HTMLDivElement>(null);
  const drag = useRef<{ pointer: number; x: number; y: number; crop: Crop } | null>(null);
  const crop = value ?? CENTRE;
  const frame = aspect === null ? null : frameOf(aspect, inches, crop);

  /** The centre the frame really has (a centre near an edge is moved inwards), rounded. */
  const settle = (next: Crop) => {
    if (aspect === null) return;
    const f = frameOf(aspect, inches, next);
    const centre = { x: round(f.left + f.width / 2), y: round(f.top + f.height / 2) };
    onChange(centre.x === 0.5 && centre.y === 0.5 ? undefined : centre);
  };

  const onPointerDown = (e: PointerEvent) => {
    if (!frame?.axis) return;
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    drag.current = { pointer: e.pointerId, x: e.clientX, y: e.clientY, crop: { ...crop } };
    e.preventDefault();
  };
  const onPointerMove = (e: PointerEvent) => {
    const d = drag.current;
    const box = stage.current?.getBoundingClientRect();
    if (!d || d.pointer !== e.pointerId || !box || !frame) return;
    const f = frameOf(aspect as number, inches, d.crop);
    const start = { x: f.left + f.width / 2, y: f.top + f.height / 2 };
    settle({
      x: frame.axis === 'x' ? start.x + (e.clientX - d.x) / box.width : 0.5,
      y: frame.axis === 'y' ? start.y + (e.clientY - d.y) / box.height : 0.5,
    });
  };
  const onPointerUp = (e: PointerEvent) => {
    if (drag.current?.pointer === e.pointerId) drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (!frame?.axis) return;
    const step = e.shiftKey ? 0.1 : 0.02;
    const moves: Record<string, number> = {
      ArrowLeft: -step,
      ArrowUp: -step,
      ArrowRight: step,
      ArrowDown: step,
      Home: -1,
      End: 1,
    };
    const delta = moves[e.key];
    if (delta === undefined) return;
    e.preventDefault();
    const centre = { x: frame.left + frame.width / 2, y: frame.top + frame.height / 2 };
    settle(frame.axis === 'x' ? { x: centre.x + delta, y: 0.5 } : { x: 0.5, y: centre.y + delta });
  };

  // Where the frame is along its axis, 0 (left or top) to 100 (right or bottom).
  const along =
    frame?.axis === 'x'
      ? frame.width < 1
        ? Math.round((frame.left / (1 - frame.width)) * 100)
        : 50
      : frame?.axis === 'y'
        ? Math.round((frame.top / (1 - frame.height)) * 100)
        : 50;
  const words =
    frame?.axis === 'x'
      ? along === 50
        ? 'centred'
        : `${along < 50 ? 'towards the left' : 'towards the right'} (${along}%)`
      : along === 50
        ? 'centred'
        : `${along < 50 ? 'towards the top' : 'towards the bottom'} (${along}%)`;

  return (
    <div class="crop-chooser">
      <div
        class="crop-stage"
        ref={stage}
        style={aspect === null ? undefined : { aspectRatio: String(aspect) }}
        data-testid={`crop-stage-${id}`}
      >
        <img
          src={thumb}
          alt=""
          draggable={false}
          onLoad={(e) => {
            const img = e.currentTarget as HTMLImageElement;
            if (img.naturalWidth && img.naturalHeight) setAspect(img.naturalWidth / img.naturalHeight);
          }}
        />
        {frame && !frame.axis && <div class="crop-frame crop-frame-full" style={placed(frame)} />}
        {frame?.axis && (
          <div
            class="crop-frame"
            style={placed(frame)}
            role="slider"
            tabIndex={0}
            aria-label={`Crop of ${label} (${size} print)`}
            aria-orientation={frame.axis === 'x' ? 'horizontal' : 'vertical'}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={along}
            aria-valuetext={words}
            onPointerDown={onPointerDown}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
            onPointerCancel={onPointerUp}
            onKeyDown={onKeyDown}
          />
        )}
      </div>
      {frame && (
        <p class="muted small crop-hint">
          {frame.axis
            ? `The ${size} print keeps what is inside the frame: drag it${frame.axis === 'x' ? ' sideways' : ' up or down'}, or use the arrow keys.`
            : `The whole photo fits a ${size} print.`}{' '}
          {value && (
            <button type="button" class="btn-link" onClick={() => onChange(undefined)}>
              Centre it again
            </button>
          )}
        </p>
      )}
    </div>
  );
}
