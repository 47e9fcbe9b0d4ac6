/**
 * The upstream stand-in turned hostile (issue 26): besides the real venue's quirks (upstreamVenue.ts) it
 * can send every bad payload a glitchy or broken feed has sent: absurd and non-positive prices, crossed
 * books, a mark spike on the WebSocket that its own info API does not confirm, floods of malformed
 * messages, an endless info answer, an oversized WebSocket message, and info requests it will not answer.
 * Loopback only, like the stand-in.
 */
import type http from 'node:http';
import { WebSocket } from 'ws';
import { UpstreamVenue, type Ctx, type Level } from './upstreamVenue.js';

export class HostileVenue extends UpstreamVenue {
  /** Info requests answered 500 (the info API cannot confirm or discard a hold). */
  failInfo = false;
  /** candleSnapshot answers that never end: this many bytes streamed in 64 KiB chunks (null: a normal answer). */
  endlessCandles: number | null = null;
  /** Whether the endless answer declares its length (Content-Length) instead of being chunked. */
  declareLength = false;
  /** Bytes of the endless answer written before the reader went away. */
  endlessWritten = 0;
  /** Whether the reader of the endless answer closed the connection before the end. */
  endlessCut = false;

  /** A context pushed on the WebSocket only: the info API keeps answering the old one. */
  spikeCtx(coin: string, change: Partial<Ctx>): void {
    this.push(`activeAssetCtx:${coin}`, { channel: 'activeAssetCtx', data: { coin, ctx: { ...this.asset(coin).ctx, ...change } } });
  }

  /** A book pushed on the WebSocket only, with a fresh time; the info API keeps the old one. */
  spikeBook(coin: string, bids: Level[], asks: Level[], time: number): void {
    this.push(`l2Book:${coin}`, { channel: 'l2Book', data: { coin, time, levels: [bids, asks] } });
  }

  /** An allMids message with these mids only. */
  mids(mids: Record<string, string>): void {
    this.push('allMids', { channel: 'allMids', data: { mids } });
  }

  /** Trades pushed as sent (any px and sz). */
  rawTrades(coin: string, trades: { side: 'B' | 'A'; px: string; sz: string }[]): void {
    const data = trades.map((t, i) => ({ coin, ...t, time: Date.now(), hash: '0x' + '2'.repeat(64), tid: Date.now() * 10 + i }));
    this.push(`trades:${coin}`, { channel: 'trades', data });
  }

  /** `count` copies of `text` sent to every socket as fast as it goes. */
  flood(count: number, text: string): void {
    for (const ws of this.clients.keys()) {
      if (ws.readyState !== WebSocket.OPEN) continue;
      for (let i = 0; i < count; i++) ws.send(text);
    }
  }

  /** One WebSocket message of `bytes` bytes on the l2Book channel of `coin`. */
  hugeMessage(coin: string, bytes: number): void {
    const message = JSON.stringify({ channel: 'l2Book', data: { coin, time: 1, levels: [[], []], pad: 'x'.repeat(bytes) } });
    for (const ws of this.clients.keys()) if (ws.readyState === WebSocket.OPEN) ws.send(message);
  }

  protected override intercept(body: { type?: string }, res: http.ServerResponse): boolean {
    if (this.failInfo) {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error');
      return true;
    }
    if (body.type === 'candleSnapshot' && this.endlessCandles !== null) {
      this.streamEndless(res, this.endlessCandles);
      return true;
    }
    return false;
  }

  private streamEndless(res: http.ServerResponse, total: number): void {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    res.writeHead(200, { 'content-type': 'application/json', ...(this.declareLength ? { 'content-length': String(total + 2) } : {}) });
    res.write('[');
    res.on('close', () => {
      if (!res.writableFinished) this.endlessCut = true;
    });
    const pump = (): void => {
      while (this.endlessWritten < total && !res.destroyed) {
        this.endlessWritten += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end(']');
    };
    pump();
  }
}
