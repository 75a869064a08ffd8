'use strict';
// The load generator's HTTP side for the capacity scenario, and the per-endpoint record of latencies
// and failures of the measured window. The generators share the 2 cores with the service and
// PostgreSQL, so their CPU per request is the service's loss: each request is written as one
// pre-assembled HTTP/1.1 buffer on a kept-alive socket and only the status line and the headers the
// framing needs are read (no ClientRequest, no header objects, no IncomingMessage stream).
// node bench/lib/capacity-client-cost.js measures it against node:http.
const net = require('node:net');
const { performance } = require('node:perf_hooks');

const now = () => performance.timeOrigin + performance.now();
const TIMEOUT_MS = 15_000;
const HEAD_END = Buffer.from('\r\n\r\n');

/**
 * Reads one response at a time off a socket's bytes: content-length or chunked framing, which are
 * all Fastify sends. Returns { status, body } once complete, else undefined (call again with more).
 */
class ResponseReader {
  constructor() {
    this.buffer = undefined;
    this.head = undefined; // { status, length, chunked, bodyAt }
  }

  push(chunk) {
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  next() {
    if (!this.buffer) return undefined;
    if (!this.head) {
      const end = this.buffer.indexOf(HEAD_END);
      if (end < 0) return undefined;
      const text = this.buffer.toString('latin1', 0, end).toLowerCase();
      const length = /\r\ncontent-length: *(\d+)/.exec(text);
      this.head = {
        status: Number(text.slice(9, 12)),
        length: length ? Number(length[1]) : undefined,
        chunked: /\r\ntransfer-encoding: *chunked/.test(text),
        close: /\r\nconnection: *close/.test(text),
        bodyAt: end + 4,
      };
    }
    const { bodyAt, length, chunked } = this.head;
    let body;
    let consumed;
    if (chunked) {
      const parts = [];
      let at = bodyAt;
      for (;;) {
        const lineEnd = this.buffer.indexOf('\r\n', at);
        if (lineEnd < 0) return undefined;
        const size = parseInt(this.buffer.toString('latin1', at, lineEnd), 16);
        if (this.buffer.length < lineEnd + 2 + size + 2) return undefined;
        if (size === 0) {
          consumed = lineEnd + 4;
          break;
        }
        parts.push(this.buffer.subarray(lineEnd + 2, lineEnd + 2 + size));
        at = lineEnd + 2 + size + 2;
      }
      body = Buffer.concat(parts);
    } else {
      const n = length ?? 0;
      if (this.buffer.length < bodyAt + n) return undefined;
      body = this.buffer.subarray(bodyAt, bodyAt + n);
      consumed = bodyAt + n;
    }
    const response = { status: this.head.status, body, close: this.head.close };
    this.head = undefined;
    this.buffer = consumed < this.buffer.length ? this.buffer.subarray(consumed) : undefined;
    return response;
  }
}

/** One kept-alive connection, one request in flight at a time (a phone does not pipeline either). */
function connection(url, onFree) {
  const conn = { busy: false, socket: undefined, pending: undefined, sentAt: 0, reader: new ResponseReader() };
  const fail = (message) => {
    const pending = conn.pending;
    conn.pending = undefined;
    if (conn.socket) conn.socket.destroy();
    conn.socket = undefined;
    conn.reader = new ResponseReader();
    if (pending) {
      conn.busy = false;
      pending({ status: 0, error: message });
      onFree(conn);
    }
  };
  const open = () => {
    const socket = net.connect({ host: url.hostname, port: Number(url.port), noDelay: true });
    conn.socket = socket;
    socket.on('data', (chunk) => {
      if (socket !== conn.socket) return;
      conn.reader.push(chunk);
      const res = conn.reader.next();
      if (!res) return;
      const pending = conn.pending;
      conn.pending = undefined;
      if (res.close) {
        socket.destroy();
        conn.socket = undefined;
        conn.reader = new ResponseReader();
      }
      conn.busy = false;
      if (pending) pending({ status: res.status, body: res.body });
      onFree(conn);
    });
    socket.on('error', (err) => socket === conn.socket && fail(err.message));
    socket.on('close', () => socket === conn.socket && fail('socket closed'));
  };
  conn.send = (bytes, resolve) => {
    conn.busy = true;
    conn.pending = resolve;
    if (!conn.socket) open();
    conn.sentAt = performance.now();
    conn.socket.write(bytes);
  };
  conn.expire = (at) => {
    if (conn.pending && at - conn.sentAt > TIMEOUT_MS) fail(`timeout after ${TIMEOUT_MS / 1000} s`);
  };
  return conn;
}

/**
 * A pool of up to maxSockets connections to one base URL; requests beyond it queue here (as a
 * phone's would behind its own connection). call(method, path, token, body) → { status, body } or
 * { status: 0, error }; never rejects.
 */
function client(base, { maxSockets = 128 } = {}) {
  const url = new URL(base);
  const hostLine = `host: ${url.host}\r\n`;
  const idle = [];
  const all = [];
  const queue = [];
  // One sweep a second gives up on answers older than TIMEOUT_MS (a timer per request cost more CPU).
  setInterval(() => {
    const at = performance.now();
    for (const conn of all) conn.expire(at);
  }, 1000).unref();
  const onFree = (conn) => {
    const next = queue.shift();
    if (next) conn.send(next.bytes, next.resolve);
    else idle.push(conn);
  };
  const call = (method, path, token, body) =>
    new Promise((resolve) => {
      const payload = body === undefined ? '' : JSON.stringify(body);
      const head = `${method} ${path} HTTP/1.1\r\n${hostLine}authorization: Bearer ${token}\r\n${body === undefined ? '' : `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(payload)}\r\n`}\r\n`;
      const bytes = head + payload;
      let conn = idle.pop();
      if (!conn && all.length < maxSockets) {
        conn = connection(url, onFree);
        all.push(conn);
      }
      if (conn) conn.send(bytes, resolve);
      else queue.push({ bytes, resolve });
    });
  // Phones keep their connections: open the pool before the load, a few at a time, so that a hiccup
  // later does not send hundreds of SYNs at once past the service's accept queue (the kernel drops
  // them and the client retries 1, 3, 7 s later: seconds that are the bench's, not the service's).
  call.prewarm = async () => {
    for (let i = 0; i < maxSockets; i += 32) {
      await Promise.all(Array.from({ length: Math.min(32, maxSockets - i) }, () => call('GET', '/health/live', 'none')));
    }
  };
  return call;
}

/**
 * Latencies (ms) and outcomes per endpoint label, kept only while `measuring`: the warm-up's
 * requests (sockets opening, first heartbeats) are not judged. `expected` statuses (a bid on a ride
 * another driver already won: 409) are counted apart, never as errors.
 */
class Recorder {
  constructor() {
    this.measuring = false;
    this.byLabel = {};
  }

  reset() {
    this.byLabel = {};
  }

  async time(label, call, expected = []) {
    const t0 = performance.now();
    const res = await call();
    const ms = performance.now() - t0;
    if (!this.measuring) return res;
    const entry = (this.byLabel[label] ??= { latencies: [], ok: 0, expected: 0, errors: 0, statuses: {} });
    entry.latencies.push(Math.round(ms * 100) / 100);
    if (res.status >= 200 && res.status < 300) entry.ok += 1;
    else if (expected.includes(res.status)) entry.expected += 1;
    else {
      entry.errors += 1;
      const key = res.status ? String(res.status) : res.error || 'no answer';
      entry.statuses[key] = (entry.statuses[key] || 0) + 1;
    }
    return res;
  }
}

module.exports = { client, Recorder, ResponseReader, now };
