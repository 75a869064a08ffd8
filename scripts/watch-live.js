#!/usr/bin/env node
/**
 * Watch the live ride channel: connects to /api/v1/ws/rides/live and prints every message.
 *
 *   node scripts/watch-live.js --token <access_token>
 *   node scripts/watch-live.js --phone +15551234567 --otp 123456     # signs in first (send-otp, verify-otp)
 *   node scripts/watch-live.js --url ws://host:3000 --token ...      # default ws://localhost:3000 (or $LIVE_URL)
 *
 * The token may also come from $ACCESS_TOKEN. Ctrl-C to stop. Exits with 1 when the server closes the
 * socket with an application code (4401 bad token, 4403 access revoked).
 */
'use strict';
const { WebSocket } = require('ws');

function arg(name) {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

async function signIn(httpBase, phone, otp) {
  const post = async (path, body) => {
    const res = await fetch(`${httpBase}/api/v1/auth/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${path}: ${res.status} ${json.message ?? ''}`);
    return json;
  };
  await post('send-otp', { phone });
  const session = await post('verify-otp', { phone, otp });
  return session.access_token;
}

async function main() {
  const base = (arg('url') ?? process.env.LIVE_URL ?? 'ws://localhost:3000').replace(/\/+$/, '');
  let token = arg('token') ?? process.env.ACCESS_TOKEN;
  const phone = arg('phone');
  if (!token && phone) token = await signIn(base.replace(/^ws/, 'http'), phone, arg('otp') ?? '');
  if (!token) {
    process.stderr.write('Usage: node scripts/watch-live.js --token <access_token> | --phone <phone> --otp <code> [--url ws://localhost:3000]\n');
    process.exit(2);
  }

  const socket = new WebSocket(`${base}/api/v1/ws/rides/live?token=${encodeURIComponent(token)}`);
  let keepAlive;
  socket.on('open', () => {
    process.stderr.write(`connected to ${base}/api/v1/ws/rides/live\n`);
    // The app-level ping the spec asks clients to send while foregrounded.
    keepAlive = setInterval(() => socket.send(JSON.stringify({ type: 'ping' })), 25_000);
  });
  socket.on('message', (data) => {
    const text = data.toString();
    try {
      const message = JSON.parse(text);
      process.stdout.write(`${message.at ?? new Date().toISOString()} ${message.type}${message.ride_id ? ` ride=${message.ride_id}` : ''}\n`);
      if (message.data !== undefined) process.stdout.write(`${JSON.stringify(message.data, null, 2)}\n`);
    } catch {
      process.stdout.write(`${text}\n`);
    }
  });
  socket.on('close', (code, reason) => {
    clearInterval(keepAlive);
    process.stderr.write(`closed: ${code} ${reason.toString()}\n`);
    process.exit(code >= 4000 ? 1 : 0);
  });
  socket.on('error', (err) => {
    process.stderr.write(`error: ${err.message}\n`);
  });
  process.on('SIGINT', () => socket.close(1000, 'bye'));
}

main().catch((err) => {
  process.stderr.write(`${err.message}\n`);
  process.exit(1);
});
