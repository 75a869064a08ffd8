'use strict';
const { spawn } = require('node:child_process');
const { performance } = require('node:perf_hooks');
const { LiveSocket } = require('./live');

/**
 * Issue 26 in the simulated city (CONTRACT §14): an operator (added with the CLI, `o.operatorCmd`,
 * signed in with the fixed code) watches the live socket. Once per run a passenger with an
 * emergency contact presses SOS on a live ride: the answer must be the open alert, the operator
 * must get `sos_raised` (with no start PIN in its ride), find it in GET /admin/sos?status=open and
 * resolve it (POST /admin/sos/{id}/resolve, audited). Without `operatorCmd` nothing happens.
 */
function createSafety({ o, api, report, notes }) {
  let operator;
  let raised = false;
  const alerts = new Map();
  const waiters = new Set();

  function onOperatorMessage(message) {
    if (message.type !== 'sos_raised') return;
    alerts.set(message.data.sos.id, { message, at: performance.now() });
    for (const wake of waiters) wake();
  }

  function sosEvent(id, timeoutMs) {
    if (alerts.has(id)) return Promise.resolve(alerts.get(id));
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), timeoutMs);
      const check = () => alerts.has(id) && done(alerts.get(id));
      const done = (value) => {
        clearTimeout(timer);
        waiters.delete(check);
        resolve(value);
      };
      waiters.add(check);
    });
  }

  function runCli(args) {
    const [cmd, ...cmdArgs] = o.operatorCmd.split(/\s+/).filter(Boolean);
    return new Promise((resolve) => {
      const child = spawn(cmd, [...cmdArgs, ...args], { env: o.cliEnv || process.env, stdio: ['ignore', 'ignore', 'pipe'] });
      let errors = '';
      child.stderr.on('data', (chunk) => (errors += chunk));
      child.on('error', (err) => resolve(err.message));
      child.on('close', (code) => resolve(code === 0 ? null : errors.trim() || `exit ${code}`));
    });
  }

  async function setUp(base, nonce) {
    if (!o.operatorCmd) return;
    const email = `ops${nonce}@demo.example.com`;
    const failed = await runCli([email, 'support', '--reason', 'Demo operator watching SOS alerts']);
    if (failed) return report('safety', `operator:add failed: ${failed}`);
    const who = 'operator';
    if (!(await api.call(base, 'POST', '/auth/send-otp', { body: { email }, label: 'POST /auth/send-otp', who })).ok) return;
    const verified = await api.call(base, 'POST', '/auth/verify-otp', { body: { email, otp: o.otp }, label: 'POST /auth/verify-otp', who });
    if (!verified.ok) return;
    operator = { base, token: verified.body.access_token };
    operator.socket = new LiveSocket({ base, token: operator.token, onMessage: onOperatorMessage, onProblem: (p) => report('websocket', `operator: ${p}`) });
    await operator.socket.open();
  }

  /** The first passenger to get here with a live ride presses SOS; the operator sees it and resolves it. */
  async function maybeRaise(p, r) {
    if (!operator || raised) return;
    raised = true;
    const who = `passenger ${p.id}`;
    const contacts = { contacts: [{ name: 'Sam', phone: '+15550000001' }] };
    await api.call(p.base, 'PUT', '/users/me/emergency-contacts', { token: p.token, body: contacts, label: 'PUT /users/me/emergency-contacts', who });
    // 409: the ride ended first (a cancel won the race); the next passenger tries.
    const res = await api.call(p.base, 'POST', `/rides/${r.id}/sos`, { token: p.token, body: {}, label: 'POST /rides/{id}/sos', expect: [409], who });
    if (!res.ok) {
      raised = res.status !== 409;
      return;
    }
    const sos = res.body;
    if (res.status !== 201 || sos.status !== 'open' || sos.ride_id !== r.id || sos.raised_by !== 'passenger')
      report('safety', `POST /rides/${r.id}/sos answered ${res.status} ${JSON.stringify(sos)}`);
    const seen = await sosEvent(sos.id, o.eventTimeoutMs);
    if (!seen) return report('safety', `SOS ${sos.id}: no sos_raised reached the operator within ${o.eventTimeoutMs} ms`);
    if (seen.message.data.ride.start_pin !== null) report('safety', `SOS ${sos.id}: the operator's ride shows a start PIN`);
    const open = await api.call(operator.base, 'GET', '/admin/sos?status=open', { token: operator.token, label: 'GET /admin/sos', who: 'operator' });
    if (open.ok && !open.body.items.some((s) => s.id === sos.id)) report('safety', `SOS ${sos.id} is not in GET /admin/sos?status=open`);
    const body = { reason: 'Demo: called the rider, all is well' };
    const resolved = await api.call(operator.base, 'POST', `/admin/sos/${sos.id}/resolve`, {
      token: operator.token,
      body,
      label: 'POST /admin/sos/{id}/resolve',
      who: 'operator',
    });
    if (resolved.ok && resolved.body.status !== 'resolved') report('safety', `POST /admin/sos/${sos.id}/resolve answered ${JSON.stringify(resolved.body)}`);
    const ms = Math.round(seen.at - res.sentAt);
    notes.push(
      `SOS ${sos.id} raised by passenger ${p.id} on ride ${r.id}: sos_raised reached the operator in ${ms} ms; ${resolved.ok ? 'resolved' : 'not resolved'}`,
    );
  }

  function close() {
    if (operator) operator.socket.close();
  }

  return { setUp, maybeRaise, close };
}

module.exports = { createSafety };
