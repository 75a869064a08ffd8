'use strict';
// Cost per request of the security headers: @fastify/helmet's way (helmet rebuilt per request),
// helmet built once (what src/bootstrap/http-policy.ts does) and the former hand-written array.
// Run: node bench/helmet-headers.js
const helmet = require('helmet').default;

const config = { contentSecurityPolicy: false, xFrameOptions: { action: 'deny' }, strictTransportSecurity: false };
const res = {
  headers: {},
  setHeader(k, v) {
    this.headers[k] = v;
  },
  removeHeader(k) {
    delete this.headers[k];
  },
};
const req = {};
const done = () => {};
const once = helmet(config);
const HEADERS = [
  ['x-content-type-options', 'nosniff'],
  ['x-frame-options', 'DENY'],
  ['referrer-policy', 'no-referrer'],
  ['cross-origin-resource-policy', 'same-origin'],
];

function bench(name, fn) {
  const n = 300_000;
  for (let i = 0; i < 20_000; i++) fn();
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  console.log(`${name}: ${(Number(process.hrtime.bigint() - start) / n).toFixed(0)} ns/request`);
}

bench('helmet rebuilt per request (@fastify/helmet)', () => helmet(config)(req, res, done));
bench('helmet built once', () => once(req, res, done));
bench('hand-written header array', () => {
  for (let i = 0; i < HEADERS.length; i++) res.setHeader(HEADERS[i][0], HEADERS[i][1]);
});
