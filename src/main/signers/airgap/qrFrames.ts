/**
 * QR code images for UR parts, one per animation frame, rendered locally by the qrcode package (no
 * service, no binary fetched). PNG data URLs drop straight into an <img>; SVG strings scale crisply on
 * any screen density.
 */
import QRCode from 'qrcode';
import { qrText } from './urParts.js';

export type QrFrameFormat = 'png-data-url' | 'svg';

export interface QrFrameOptions {
  format: QrFrameFormat;
  /** Pixel width of PNG frames (SVG scales). Default 400. */
  width?: number;
  /** Quiet zone in modules; the QR standard asks for 4, 2 is what scanners need in practice. Default 2. */
  margin?: number;
}

export async function renderQrFrames(parts: readonly string[], options: QrFrameOptions): Promise<string[]> {
  // Level L: a screen is a clean medium, and the fountain code already tolerates missed frames, so
  // the capacity goes to data and the modules stay large.
  const common = { errorCorrectionLevel: 'L' as const, margin: options.margin ?? 2 };
  return Promise.all(
    parts.map((part) =>
      options.format === 'svg'
        ? QRCode.toString(qrText(part), { ...common, type: 'svg' })
        : QRCode.toDataURL(qrText(part), { ...common, type: 'image/png', width: options.width ?? 400 }),
    ),
  );
}
