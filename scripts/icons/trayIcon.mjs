/**
 * Draws the tray icon (32x32, shown at 16 points with scale factor 2) and prints it as base64 PNG for
 * src/main/shell/trayIcon.ts: a rounded square in the app's accent colour with a rising line. Drawn in
 * code so it needs no image tool and no packaged file: `node scripts/icons/trayIcon.mjs`.
 */
import zlib from 'node:zlib';

const SIZE = 32;
const ACCENT = [0x4c, 0x8d, 0xff]; // --accent of the dark theme (src/renderer/src/styles/theme.css)
const pixels = Buffer.alloc(SIZE * SIZE * 4);

/** Coverage of a pixel by a shape, by 4x4 supersampling (smooth edges). */
function cover(inside, x, y) {
  let n = 0;
  for (let i = 0; i < 4; i++) for (let j = 0; j < 4; j++) if (inside(x + (i + 0.5) / 4, y + (j + 0.5) / 4)) n++;
  return n / 16;
}
const R = 7;
function inSquare(x, y) {
  const cx = Math.min(Math.max(x, 1 + R), SIZE - 1 - R);
  const cy = Math.min(Math.max(y, 1 + R), SIZE - 1 - R);
  return x >= 1 && x <= SIZE - 1 && y >= 1 && y <= SIZE - 1 && (x - cx) ** 2 + (y - cy) ** 2 <= R * R;
}
const LINE = [[7, 22], [13, 16], [18, 20], [25, 10]];
function inLine(x, y) {
  for (let k = 0; k < LINE.length - 1; k++) {
    const [x1, y1] = LINE[k];
    const [x2, y2] = LINE[k + 1];
    const dx = x2 - x1, dy = y2 - y1;
    const t = Math.max(0, Math.min(1, ((x - x1) * dx + (y - y1) * dy) / (dx * dx + dy * dy)));
    if ((x - (x1 + t * dx)) ** 2 + (y - (y1 + t * dy)) ** 2 <= 2.2 * 2.2) return true;
  }
  return false;
}
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    const sq = cover(inSquare, x, y);
    const ln = cover(inLine, x, y);
    const o = (y * SIZE + x) * 4;
    for (let c = 0; c < 3; c++) pixels[o + c] = Math.round(ACCENT[c] * (1 - ln) + 255 * ln);
    pixels[o + 3] = Math.round(255 * sq);
  }
}

function crc32(buf) {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}
function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
const header = Buffer.alloc(13);
header.writeUInt32BE(SIZE, 0);
header.writeUInt32BE(SIZE, 4);
header.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
const rows = Buffer.concat(Array.from({ length: SIZE }, (_, y) => Buffer.concat([Buffer.from([0]), pixels.subarray(y * SIZE * 4, (y + 1) * SIZE * 4)])));
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
if (process.argv[2]) (await import('node:fs')).writeFileSync(process.argv[2], png);
else process.stdout.write(png.toString('base64'));
