'use strict';
/**
 * The fan-out's ceiling: a bare `ws` server (no Nest, no auth, no routing) that writes one frame to
 * every socket it holds when told to over IPC, the way the service's ConnectionRegistry does (the
 * bytes made once, then one send per socket). The fan-out scenario runs it in the same run, with the
 * same client workers and a frame of the same size, so the service's cost per socket is a ratio.
 */
const { performance } = require('node:perf_hooks');
const { WebSocketServer } = require('ws');

const TEXT = { binary: false };
const server = new WebSocketServer({ host: '127.0.0.1', port: 0, perMessageDeflate: false, clientTracking: true });
server.on('listening', () => process.send({ type: 'listening', port: server.address().port }));

process.on('message', (msg) => {
  if (msg.cmd === 'broadcast') {
    const data = Buffer.from(msg.frame);
    const startedAt = performance.timeOrigin + performance.now();
    let sent = 0;
    for (const socket of server.clients) {
      socket.send(data, TEXT);
      sent += 1;
    }
    process.send({ type: 'broadcasted', sent, startedAt, loop_ms: performance.timeOrigin + performance.now() - startedAt });
  } else if (msg.cmd === 'close') {
    for (const socket of server.clients) socket.terminate();
    server.close(() => process.exit(0));
  }
});
