/**
 * The booth's photo code cards (`GET /api/finder/cards.pdf`): a PDF of freshly issued codes,
 * ten business-card-sized cards a page, for attendees without a phone at hand.
 */
import { useState } from 'preact/hooks';
import { adminApi, raw } from '../lib/api.js';
import { showToast } from '../lib/toast.js';
import { onAdminError } from './session.js';

/** A sheet holds ten cards: the form counts in whole sheets (the default, two, is a valid value of it). */
const PER_SHEET = 10;
const MAX_CARDS = 500;

export function CodeCardsPanel() {
  const [count, setCount] = useState(2 * PER_SHEET);
  const [paper, setPaper] = useState<'letter' | 'a4'>('letter');
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const res = await raw(
        adminApi.GET('/api/finder/cards.pdf', {
          params: { query: { count, paper } },
          parseAs: 'stream',
          headers: { Accept: 'application/pdf' },
        }),
      );
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = `photo-code-cards-${count}.pdf`;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 30_000);
    } catch (err) {
      showToast((onAdminError(err) as Error).message, { kind: 'error' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <section class="card code-cards">
      <h2>Photo code cards</h2>
      <p class="muted">
        Print cards for attendees without a phone: you shoot the card first, they scan it later to find their photos.
        Every card is a new code.
      </p>
      <form
        class="field-row"
        onSubmit={(e) => {
          e.preventDefault();
          void download();
        }}
      >
        <div class="field">
          <label for="cards-count">Cards</label>
          <p id="cards-count-hint" class="hint">
            Ten to a sheet.
          </p>
          <input
            id="cards-count"
            type="number"
            min={PER_SHEET}
            max={MAX_CARDS}
            step={PER_SHEET}
            value={count}
            aria-describedby="cards-count-hint"
            onInput={(e) => {
              const n = Math.round((Number((e.target as HTMLInputElement).value) || 0) / PER_SHEET) * PER_SHEET;
              setCount(Math.max(PER_SHEET, Math.min(MAX_CARDS, n)));
            }}
          />
        </div>
        <div class="field">
          <label for="cards-paper">Paper</label>
          <select
            id="cards-paper"
            value={paper}
            onChange={(e) => setPaper((e.target as HTMLSelectElement).value as 'letter' | 'a4')}
          >
            <option value="letter">Letter (3.5 × 2 in cards)</option>
            <option value="a4">A4 (85 × 54 mm cards)</option>
          </select>
        </div>
        <button type="submit" class="btn btn-secondary" disabled={busy}>
          {busy ? 'Making the sheet…' : 'Print photo code cards (PDF)'}
        </button>
      </form>
    </section>
  );
}
