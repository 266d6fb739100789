/** The few icons the app uses, inline (no icon font, no request). Decorative: aria-hidden. */
import type { JSX } from 'preact';

const base = {
  width: 22,
  height: 22,
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  'stroke-width': 2,
  'stroke-linecap': 'round',
  'stroke-linejoin': 'round',
  focusable: 'false',
} as const;

type P = { size?: number; filled?: boolean };

const icon = (children: JSX.Element | JSX.Element[]) =>
  function Icon({ size = 22, filled = false }: P) {
    return (
      <svg {...base} aria-hidden="true" width={size} height={size} fill={filled ? 'currentColor' : 'none'}>
        {children}
      </svg>
    );
  };

export const QrIcon = icon([
  <rect key="a" x="3" y="3" width="7" height="7" rx="1" />,
  <rect key="b" x="14" y="3" width="7" height="7" rx="1" />,
  <rect key="c" x="3" y="14" width="7" height="7" rx="1" />,
  <path key="d" d="M14 14h3v3h-3zM20 14v1M14 20h1M18 18h3v3" />,
]);
export const HeartIcon = icon(
  <path d="M12 20.5s-7.5-4.6-9.3-9.2C1.5 8 3.5 4.5 7 4.5c2 0 3.4 1.1 5 3 1.6-1.9 3-3 5-3 3.5 0 5.5 3.5 4.3 6.8-1.8 4.6-9.3 9.2-9.3 9.2z" />,
);
export const CartIcon = icon([
  <path key="b" d="M5 7h14l-1.4 11.2a2 2 0 0 1-2 1.8H8.4a2 2 0 0 1-2-1.8z" />,
  <path key="h" d="M9 7V6a3 3 0 0 1 6 0v1" />,
]);
export const CameraIcon = icon([
  <path key="b" d="M4 8h3l2-3h6l2 3h3a1 1 0 0 1 1 1v10a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V9a1 1 0 0 1 1-1z" />,
  <circle key="l" cx="12" cy="14" r="3.5" />,
]);
export const CloseIcon = icon(<path d="M6 6l12 12M18 6L6 18" />);
export const PrevIcon = icon(<path d="M15 5l-7 7 7 7" />);
export const NextIcon = icon(<path d="M9 5l7 7-7 7" />);
export const SearchIcon = icon([<circle key="c" cx="11" cy="11" r="6.5" />, <path key="l" d="M16 16l4.5 4.5" />]);
export const TrashIcon = icon([<path key="a" d="M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13" />]);
export const BellIcon = icon([
  <path key="a" d="M6 16V11a6 6 0 0 1 12 0v5l2 2H4z" />,
  <path key="b" d="M10 20a2 2 0 0 0 4 0" />,
]);
