/** Time display. Service times are Unix ms integers (JSON numbers, not money), so plain numbers are right here. */

const pad = (n: number): string => String(n).padStart(2, '0');

/** 2025-01-31 14:05:09, local time: precise and sortable, as trading history wants. */
export function fmtDateTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function fmtTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '—';
  const d = new Date(ms);
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** "12d 4h", "3h 12m", "4m 10s", "expired": how long until a deadline. */
export function fmtCountdown(msLeft: number): string {
  if (msLeft <= 0) return 'expired';
  const s = Math.floor(msLeft / 1000);
  const d = Math.floor(s / 86400);
  const h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${m}m`;
  if (m > 0) return `${m}m ${sec}s`;
  return `${sec}s`;
}

export const DAY_MS = 86_400_000;
