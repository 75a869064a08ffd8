'use strict';
const { WebSocket } = require('ws');
const { performance } = require('node:perf_hooks');

/**
 * One user's WebSocket: connects with ?token=, sends {"type":"ping"} periodically, hands every
 * message to onMessage(message, arrivedAt) and reconnects with backoff after an unexpected close.
 */
class LiveSocket {
  constructor({ base, token, onMessage, onProblem, pingMs = 10_000 }) {
    this.url = `${base.replace(/^http/, 'ws')}/api/v1/ws/rides/live?token=${encodeURIComponent(token)}`;
    this.onMessage = onMessage;
    this.onProblem = onProblem;
    this.pingMs = pingMs;
    this.closing = false;
    this.attempt = 0;
    this.pongs = 0;
  }

  /** Resolves once the first message (the ride_snapshot) arrived. */
  open() {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      let first = true;
      ws.on('message', (data) => {
        const at = performance.now();
        let message;
        try {
          message = JSON.parse(data.toString());
        } catch {
          this.onProblem(`non-JSON WebSocket message: ${data.toString().slice(0, 80)}`);
          return;
        }
        if (first) {
          first = false;
          this.attempt = 0;
          if (message.type !== 'ride_snapshot') this.onProblem(`first WebSocket message was ${message.type}, not ride_snapshot`);
          resolve();
        }
        if (message.type === 'pong') this.pongs++;
        this.onMessage(message, at);
      });
      ws.on('open', () => {
        this.keepAlive = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: 'ping' })), this.pingMs);
      });
      ws.on('error', (err) => {
        if (first) reject(err);
      });
      ws.on('close', (code) => {
        clearInterval(this.keepAlive);
        if (first) reject(new Error(`WebSocket closed with ${code} before ride_snapshot`));
        if (this.closing) return;
        this.onProblem(`WebSocket closed unexpectedly with ${code}`);
        const delay = Math.min(10_000, 500 * 2 ** this.attempt++);
        setTimeout(() => this.open().catch(() => undefined), delay);
      });
    });
  }

  close() {
    this.closing = true;
    clearInterval(this.keepAlive);
    if (this.ws) this.ws.close(1000, 'simulation over');
  }
}

module.exports = { LiveSocket };
