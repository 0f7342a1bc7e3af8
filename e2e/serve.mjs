// A static file server for the built site (dist/), on 127.0.0.1 only, with the MIME types a
// browser needs for wasm. Used by the end-to-end tests and the benchmarks.
//
// For the load benchmark (bench/load.mjs) it can also behave like a static host on a slow
// network: `compress` sends the precompressed `.br`/`.gz` beside a file (scripts/build-site.sh
// writes them) or gzips on the fly, with ETags and `cache-control: no-cache` as static hosts
// do; `link` emulates the network in the server itself, so every request is slowed alike (the
// page's, its Web Worker's and its service worker's, which the DevTools throttling does not
// all reach): each response waits one round trip, and all bodies share one link's bandwidth.
import http from 'node:http';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
  '.png': 'image/png',
};

/** Bytes a link sends at once: small enough that concurrent responses interleave. */
const CHUNK = 16 * 1024;

/**
 * Serves `root` on 127.0.0.1 at a free port, plus `extra` (URL path → file path); resolves to
 * { url, close, stats }. Options: `compress` (boolean), `link` ({ mbps, rttMs }: bandwidth in
 * Mbit/s and round-trip time). `stats.bytes` counts the body bytes sent, `stats.requests` the
 * requests answered, `stats.sent[path]` the times a path's body was sent (a 304 sends none).
 */
export async function serve(root, extra = {}, { compress = false, link = null } = {}) {
  const base = resolve(root);
  const stats = { bytes: 0, requests: 0, sent: {} };
  let linkFreeAt = 0;
  const sleep = (ms) => new Promise((ok) => setTimeout(ok, Math.max(0, ms)));
  /** Sends `body` over the emulated link (or at once), then ends the response. */
  async function send(res, body) {
    stats.bytes += body.length;
    if (!link) {
      res.end(body);
      return;
    }
    const bytesPerMs = (link.mbps * 1e6) / 8 / 1000;
    for (let at = 0; at < body.length; at += CHUNK) {
      const chunk = body.subarray(at, at + CHUNK);
      const start = Math.max(performance.now(), linkFreeAt);
      linkFreeAt = start + chunk.length / bytesPerMs;
      await sleep(linkFreeAt - performance.now());
      res.write(chunk);
    }
    res.end();
  }
  const server = http.createServer(async (req, res) => {
    stats.requests += 1;
    if (link) await sleep(link.rttMs);
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = extra[path] ?? normalize(join(base, path));
    if (!(path in extra) && !file.startsWith(base)) {
      res.writeHead(403).end();
      return;
    }
    if (path.endsWith('/')) file = join(file, 'index.html');
    let body;
    try {
      body = await readFile(file);
    } catch {
      res.writeHead(404).end('not found');
      return;
    }
    const headers = { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' };
    if (compress) {
      const etag = `"${createHash('sha1').update(body).digest('hex').slice(0, 20)}"`;
      headers.etag = etag;
      headers['cache-control'] = 'no-cache';
      headers.vary = 'accept-encoding';
      if (req.headers['if-none-match'] === etag) {
        res.writeHead(304, headers).end();
        return;
      }
      const accepts = String(req.headers['accept-encoding'] ?? '');
      const pre = async (suffix) => readFile(file + suffix).catch(() => null);
      let encoded = null;
      if (accepts.includes('br') && (encoded = await pre('.br'))) headers['content-encoding'] = 'br';
      else if (accepts.includes('gzip')) {
        encoded = (await pre('.gz')) ?? gzipSync(body, { level: 9 });
        headers['content-encoding'] = 'gzip';
      }
      if (encoded) body = encoded;
    }
    headers['content-length'] = body.length;
    stats.sent[path] = (stats.sent[path] ?? 0) + 1;
    res.writeHead(200, headers);
    await send(res, body);
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    stats,
    close: () =>
      new Promise((ok) => {
        server.closeAllConnections?.();
        server.close(ok);
      }),
  };
}
