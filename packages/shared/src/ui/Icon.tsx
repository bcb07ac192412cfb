/**
 * Small line icons drawn in the current text colour. Icons never carry meaning alone: the control around them
 * has the accessible name, so they are hidden from screen readers. (Emoji glyphs are not used for controls:
 * whether they render depends on the fonts of the machine.)
 */
const PATHS = {
  search: 'M10.5 3a7.5 7.5 0 1 0 4.6 13.4l4.3 4.3 1.4-1.4-4.3-4.3A7.5 7.5 0 0 0 10.5 3Zm0 2a5.5 5.5 0 1 1 0 11 5.5 5.5 0 0 1 0-11Z',
  timer: 'M9 1h6v2H9V1Zm3 4a8 8 0 1 0 0 16 8 8 0 0 0 0-16Zm0 2a6 6 0 1 1 0 12 6 6 0 0 1 0-12Zm-1 2v4.4l3.3 2 1-1.7-2.3-1.4V9h-2Zm7.3-3.7 1.4 1.4-1.5 1.5-1.4-1.4 1.5-1.5Z',
  bell: 'M12 2a6 6 0 0 0-6 6v4.6L4 16v2h16v-2l-2-3.4V8a6 6 0 0 0-6-6Zm0 2a4 4 0 0 1 4 4v5.1l1.2 2.9H6.8L8 13.1V8a4 4 0 0 1 4-4Zm-2 16a2 2 0 0 0 4 0h-4Z',
  bellOff:
    'M3.3 2 2 3.3l4.1 4.1A6 6 0 0 0 6 8v4.6L4 16v2h12.7l4 4 1.3-1.3L3.3 2ZM8 9.3l6.7 6.7H6.8L8 13.1V9.3ZM12 2a6 6 0 0 0-3.3 1l1.5 1.4A4 4 0 0 1 16 8v4.8l2 2V8a6 6 0 0 0-6-6Zm-2 18a2 2 0 0 0 4 0h-4Z',
  trash: 'M9 2h6l1 2h4v2H4V4h4l1-2ZM6 8h12l-1 13H7L6 8Zm2.2 2 .7 9h6.2l.7-9H8.2Z',
  attach:
    'M16.5 6v10.5a4.5 4.5 0 0 1-9 0V5a3 3 0 0 1 6 0v10.5a1.5 1.5 0 0 1-3 0V6H9v9.5a3 3 0 0 0 6 0V5a4.5 4.5 0 0 0-9 0v11.5a6 6 0 0 0 12 0V6h-1.5Z',
  mic: 'M12 2a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V5a3 3 0 0 0-3-3Zm-7 9a7 7 0 0 0 6 6.9V21h2v-3.1a7 7 0 0 0 6-6.9h-2a5 5 0 0 1-10 0H5Z',
  folder: 'M3 5h7l2 2h9v12H3V5Zm2 2v10h14V9h-7.8l-2-2H5Z',
  file: 'M6 2h8l5 5v15H6V2Zm2 2v16h9V8h-4V4H8Z',
  clock: 'M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20Zm0 2a8 8 0 1 1 0 16 8 8 0 0 1 0-16Zm-1 3v5.4l4 2.4 1-1.7-3-1.8V7h-2Z',
  check: 'M9 16.2 4.8 12l-1.4 1.4L9 19 21 7l-1.4-1.4L9 16.2Z',
  checks: 'M18 7l-1.4-1.4-6.3 6.3 1.4 1.4L18 7Zm4.2-1.4L11.7 16.2 7.5 12l-1.4 1.4 5.6 5.6 12-12-1.5-1.4ZM.4 13.4 6 19l1.4-1.4L1.8 12 .4 13.4Z',
  play: 'M8 5v14l11-7L8 5Z',
  pause: 'M7 5h4v14H7V5Zm6 0h4v14h-4V5Z',
  up: 'M12 5 5 12l1.4 1.4 4.6-4.6V19h2V8.8l4.6 4.6L19 12l-7-7Z',
  down: 'M12 19l7-7-1.4-1.4-4.6 4.6V5h-2v10.2l-4.6-4.6L5 12l7 7Z',
  more: 'M5 10a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4Zm7 0a2 2 0 1 0 0 4 2 2 0 0 0 0-4Z',
  group: 'M9 11a3 3 0 1 0 0-6 3 3 0 0 0 0 6Zm7 0a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5ZM3 18c0-2.8 2.7-4.5 6-4.5s6 1.7 6 4.5v1H3v-1Zm13.5-4.3c2.5.3 4.5 1.7 4.5 3.8v1.5h-4v-1c0-1.7-.2-3.1-.5-4.3Z',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, size = 20 }: { name: IconName; size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false" fill="currentColor" style={{ flex: 'none', verticalAlign: 'middle' }}>
      <path d={PATHS[name]} fillRule="evenodd" />
    </svg>
  );
}
