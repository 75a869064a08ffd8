'use strict';
// Access tokens minted by the bench for users it seeded through SQL (no OTP round trips): HS256
// with the JWT_SECRET the bench gives the service, the claims TokenService.issueAccess signs.
const { createHmac } = require('node:crypto');

const b64url = (value) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

function mintAccessToken(secret, userId, role, ttlSeconds = 3600) {
  const iat = Math.floor(Date.now() / 1000);
  const head = `${b64url({ alg: 'HS256', typ: 'JWT' })}.${b64url({ sub: String(userId), role, type: 'access', iat, exp: iat + ttlSeconds })}`;
  return `${head}.${createHmac('sha256', Buffer.from(secret, 'utf8')).update(head).digest('base64url')}`;
}

module.exports = { mintAccessToken };
