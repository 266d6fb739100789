/**
 * The demo library's plan (demo.ts): two events over two days, their sessions and photos in
 * display order, and the photographer's metadata each photo carries. No drawing, no files.
 */
import { compareNames } from './naming.js';

export const DAY_MS = 86_400_000;

type DemoSession = { name: string; photos: number };
type DemoEvent = {
  folder: string;
  name: string;
  prefix: string;
  /** The event's first day, relative to the day of generation. */
  startsInDays: number;
  /** Ordering deadline relative to generation, or null for none. */
  deadlineInDays: number | null;
  prices: Record<string, number>;
  shippingFee: number;
  hue: number;
  days: { name: string; sessions: DemoSession[] }[];
};

/** 60 photos: 30 per event. */
const DEMO_EVENTS: readonly DemoEvent[] = [
  {
    folder: 'Harbor Comic Con',
    name: 'Harbor Comic Con',
    prefix: 'HCC',
    startsInDays: -3,
    deadlineInDays: 30,
    prices: { '4x6': 5, '5x7': 10, '8x10': 20 },
    shippingFee: 5,
    hue: 205,
    days: [
      {
        name: 'Day 1',
        sessions: [
          { name: 'Cosplay Stage', photos: 6 },
          { name: 'Main Hall', photos: 5 },
          { name: 'Photo Booth', photos: 5 },
        ],
      },
      {
        name: 'Day 2',
        sessions: [
          { name: 'Cosplay Stage', photos: 7 },
          { name: 'Masquerade', photos: 7 },
        ],
      },
    ],
  },
  {
    folder: 'Spring Matsuri',
    name: 'Spring Matsuri',
    prefix: 'SPM',
    startsInDays: -45,
    deadlineInDays: null,
    prices: { '4x6': 6, '5x7': 12, '8x10': 22, '11x14': 35 },
    shippingFee: 4.5,
    hue: 330,
    days: [
      {
        name: 'Day 1',
        sessions: [
          { name: 'Garden Walk', photos: 8 },
          { name: 'Lantern Parade', photos: 7 },
        ],
      },
      {
        name: 'Day 2',
        sessions: [
          { name: 'Dance Stage', photos: 5 },
          { name: 'Photo Booth', photos: 5 },
          // The sixth is the reject (a blink): numbered 31, never listed.
          { name: 'Tea House', photos: 6 },
        ],
      },
    ],
  },
];

/** Images drawn (the reject included). */
export const DEMO_PHOTO_COUNT = DEMO_EVENTS.reduce(
  (n, e) => n + e.days.reduce((m, d) => m + d.sessions.reduce((k, s) => k + s.photos, 0), 0),
  0,
);

/** Frames the demo's photographer rejected: drawn, numbered, never listed. */
export const DEMO_REJECTED = 1;

/** What Lightroom would have embedded in a demo photo. */
export type DemoMetadata = { rating?: number; keywords?: string[]; photographer: string; caption?: string };

const COSPLAY = [
  ['Nezuko', 'Demon Slayer'],
  ['Pikachu', 'Pokémon'],
  ['Sailor Moon', 'Sailor Moon'],
  ['Link', 'Zelda'],
  ['Raiden Shogun', 'Genshin Impact'],
] as const;

/** The demo's metadata of the n-th photo of an event. */
function demoMetadata(event: DemoEvent, day: string, number: number, last: boolean): DemoMetadata {
  const photographer = event.folder === 'Harbor Comic Con' && day === 'Day 1' ? 'Jo Lens' : 'Sam Shutter';
  if (last && event.folder === 'Spring Matsuri') return { photographer, rating: -1, keywords: ['_blink'] };
  const [character, series] = COSPLAY[number % COSPLAY.length] as readonly [string, string];
  const meta: DemoMetadata = { photographer, keywords: [character, series, 'Cosplay'] };
  if (number % 7 === 3) meta.rating = 5;
  else if (number % 7 === 5) meta.rating = 4;
  else if (number % 3 === 0) meta.rating = 2;
  if (number % 10 === 1) meta.caption = `${character} (${series}) at ${event.name}`;
  return meta;
}

/** One image to draw: where it goes and what it shows. */
export type DemoImage = {
  event: string;
  day: string;
  session: string;
  fileName: string;
  number: number;
  takenAt: Date;
  width: number;
  height: number;
  hue: number;
  caption: string;
  metadata: DemoMetadata;
};

/** The plan, in display order: the n-th image of an event carries number n. */
export function planDemoLibrary(now: Date): { events: DemoEvent[]; images: DemoImage[] } {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const images: DemoImage[] = [];
  for (const event of DEMO_EVENTS) {
    const start = today + event.startsInDays * DAY_MS;
    let number = 0;
    const days = [...event.days].sort((a, b) => compareNames(a.name, b.name));
    const total = event.days.reduce((n, d) => n + d.sessions.reduce((m, x) => m + x.photos, 0), 0);
    days.forEach((day, dayIndex) => {
      const sessions = [...day.sessions].sort((a, b) => compareNames(a.name, b.name));
      sessions.forEach((session, sessionIndex) => {
        for (let i = 0; i < session.photos; i++) {
          number++;
          // Sessions of a day run in folder order, photos a few minutes apart.
          const takenAt = new Date(start + dayIndex * DAY_MS + (10 + sessionIndex * 2) * 3_600_000 + i * 197_000);
          const portrait = number % 5 === 0;
          images.push({
            event: event.folder,
            day: day.name,
            session: session.name,
            fileName: `IMG_${String(number).padStart(4, '0')}.jpg`,
            number,
            takenAt,
            width: portrait ? 1067 : 1600,
            height: portrait ? 1600 : 1067,
            hue: (event.hue + number * 23) % 360,
            caption: `${event.name} · ${day.name} · ${session.name}`,
            metadata: demoMetadata(event, day.name, number, number === total),
          });
        }
      });
    });
  }
  return { events: [...DEMO_EVENTS], images };
}
