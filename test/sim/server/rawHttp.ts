/**
 * One HTTP request with exactly the headers given (node:http, not fetch: fetch sets Host itself and
 * never lets a test send the Host or Origin a browser page would).
 */
import http from 'node:http';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** The parsed JSON body (undefined when the body is not JSON). */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- arbitrary JSON answers go to assertions
}

export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer } = {}): Promise<RawAnswer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: target.hostname, port: target.port, path: target.pathname + target.search, method: options.method ?? 'GET', headers: options.headers ?? {}, setHost: !options.headers?.['host'] },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try {
            json = text ? JSON.parse(text) : undefined;
          } catch {
            json = undefined;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      },
    );
    // Writing a large body the server refuses early ends in EPIPE/ECONNRESET on our side once it closes
    // the connection; the answer already came (or did not: then the request fails below).
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code !== 'EPIPE' && err.code !== 'ECONNRESET') reject(err);
    });
    req.on('close', () => reject(new Error(`${options.method ?? 'GET'} ${url}: connection closed without an answer`)));
    req.end(options.body);
  });
}
