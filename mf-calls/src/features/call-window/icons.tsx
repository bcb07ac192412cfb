/**
 * Line icons the shared set lacks, drawn like the shared `Icon` (24×24, current text colour, hidden from screen
 * readers: the button around each one carries the name).
 */
const STROKES = {
  mic: 'M12 3a3 3 0 0 0-3 3v5a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3ZM5 11a7 7 0 0 0 14 0M12 18v3',
  micOff: 'M12 3a3 3 0 0 0-3 3v5a3 3 0 0 0 4.2 2.7M15 10.5V6a3 3 0 0 0-5.6-1.5M5 11a7 7 0 0 0 11.3 5.5M19 11a7 7 0 0 1-.6 2.8M12 18v3M3 3l18 18',
  camera: 'M3 7h12v10H3zM15 10.5 21 7v10l-6-3.5',
  cameraOff: 'M3 7h4m4 0h4v6M15 10.5 21 7v10l-6-3.5M3 7v10h12M3 3l18 18',
  screen: 'M3 4h18v12H3zM8 20h8M12 16v4M12 13V7M9 10l3-3 3 3',
  screenOff: 'M3 4h18v12H3zM8 20h8M12 16v4M9.5 7.5l5 5M14.5 7.5l-5 5',
  maximize: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  restore: 'M9 4v5H4M15 4v5h5M9 20v-5H4M15 20v-5h5',
} as const;

const FILLS = {
  hangUp: 'M2.5 14.2c5.3-4.6 13.7-4.6 19 0l-2.2 3-3.8-1.3v-2.6a11 11 0 0 0-7 0v2.6l-3.8 1.3-2.2-3Z',
} as const;

export type CallIconName = keyof typeof STROKES | keyof typeof FILLS;

export function CallIcon({ name, size = 22 }: { name: CallIconName; size?: number }) {
  const filled = name in FILLS;
  return (
    <svg
      width={size}
      height={size}
      viewBox="0 0 24 24"
      aria-hidden="true"
      focusable="false"
      fill={filled ? 'currentColor' : 'none'}
      stroke={filled ? 'none' : 'currentColor'}
      strokeWidth={2}
      strokeLinecap="round"
      strokeLinejoin="round"
      style={{ flex: 'none', verticalAlign: 'middle' }}
    >
      <path d={filled ? FILLS[name as keyof typeof FILLS] : STROKES[name as keyof typeof STROKES]} />
    </svg>
  );
}
