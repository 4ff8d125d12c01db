/** Numbers, sizes and times in words, the same way on every page. Plain functions (tested in Node). */

/** `1 error`, `2 errors`. */
export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n.toLocaleString('en')} ${n === 1 ? word : many}`;
}

/** `512 bytes`, `3.4 KiB`, `1.20 MiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n.toLocaleString('en')} ${n === 1 ? 'byte' : 'bytes'}`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / 1024 / 1024).toFixed(2)} MiB`;
}

const dateTime = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZoneName: 'short',
});

const dateOnly = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short' });

/** `24 Nov 2026, 16:05:09 UTC` (the browser's time zone): to the second, as fetches minutes apart are told apart. */
export function formatTime(iso: string): string {
  return dateTime.format(new Date(iso));
}

/** `24 Nov`: axis labels. */
export function formatDay(ms: number): string {
  return dateOnly.format(new Date(ms));
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const STEPS: [limit: number, unit: Intl.RelativeTimeFormatUnit, size: number][] = [
  [60_000, 'second', 1000],
  [3_600_000, 'minute', 60_000],
  [86_400_000, 'hour', 3_600_000],
  [30 * 86_400_000, 'day', 86_400_000],
  [365 * 86_400_000, 'month', 30 * 86_400_000],
  [Number.POSITIVE_INFINITY, 'year', 365 * 86_400_000],
];

/** `5 minutes ago`, `in 3 hours`, `now` relative to `now` (ms). */
export function formatRelative(iso: string, now: number): string {
  const delta = Date.parse(iso) - now;
  const abs = Math.abs(delta);
  if (abs < 10_000) return 'just now';
  for (const [limit, unit, size] of STEPS) {
    if (abs < limit) return relative.format(Math.round(delta / size), unit);
  }
  return formatTime(iso);
}

/** `2 h 5 min`, `3 days`: lengths of time. */
export function formatDuration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return `${Math.max(0, Math.round(ms / 1000))} s`;
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  return plural(Math.round(hours / 24), 'day');
}
