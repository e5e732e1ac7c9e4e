// A tiny HTTP + WebSocket server for the harness self-test: it serves
// tests/browser/fixtures/ and, on /ws, numbers "events" like the Citadel
// server does (one every `tickMs`), so the self-test page can show the
// contract's connection state, lastSeq and a reconnect catch-up without
// the real server. WebSocket framing is written out by hand (small text
// frames only) to keep the package free of other dependencies.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
const WS_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

function frame(text) {
  const payload = Buffer.from(text);
  const head = payload.length < 126
    ? Buffer.from([0x81, payload.length])
    : Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, payload]);
}

/** Start on 127.0.0.1, any port. Resolves to `{ url, close() }`. */
export async function startFixtureServer({ tickMs = 100 } = {}) {
  let seq = 0;
  const sockets = new Set();
  const timer = setInterval(() => {
    seq += 1;
    for (const s of sockets) s.write(frame(JSON.stringify({ type: 'events', seq })));
  }, tickMs);

  const server = createServer(async (req, res) => {
    const path = normalize(new URL(req.url, 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    const file = join(FIXTURES, path === '/' ? 'selftest.html' : path);
    try {
      const body = await readFile(file);
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404).end('not found');
    }
  });

  server.on('upgrade', (req, socket) => {
    const key = req.headers['sec-websocket-key'];
    if (new URL(req.url, 'http://x').pathname !== '/ws' || !key) return socket.destroy();
    const accept = createHash('sha1').update(key + WS_GUID).digest('base64');
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`);
    sockets.add(socket);
    // The page's hello (or anything else it sends) is answered with the
    // current seq; a close frame (opcode 8) ends the socket.
    socket.on('data', (buf) => {
      if ((buf[0] & 0x0f) === 0x8) return socket.end(Buffer.from([0x88, 0]));
      socket.write(frame(JSON.stringify({ type: 'welcome', seq })));
    });
    const gone = () => sockets.delete(socket);
    socket.on('close', gone);
    socket.on('error', gone);
  });

  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    seq: () => seq,
    async close() {
      clearInterval(timer);
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
