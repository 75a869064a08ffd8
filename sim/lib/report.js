'use strict';
const { formatTable } = require('./stats');

/** The end-of-run summary as text. */
function formatSummary(result) {
  const c = result.counters;
  const lines = [];
  lines.push(
    `Simulation: ${result.users.passengers} passengers, ${result.users.drivers} drivers (${result.users.walletCredited} wallets credited), ${result.seconds.toFixed(0)} s (${(result.setupSeconds ?? 0).toFixed(0)} s of sign-ups)`,
  );
  lines.push(
    `Rides: requested ${c.requested}, accepted ${c.accepted}, completed ${c.completed} (${c.walletRidesCompleted} by wallet, ${c.cardRidesCompleted ?? 0} by card), cancelled ${c.cancelled}, expired ${c.expired}, unfinished ${c.inProgress}; bids ${c.bids}; tips ${c.tips ?? 0}; no-shows ${c.noShows ?? 0}; cancellation fees ${c.fees ?? 0}; chat messages ${c.messages ?? 0}; booked for later ${c.scheduled || 0} (${c.scheduledCancelled || 0} cancelled)`,
  );
  lines.push(
    `Requests: ${c.requests} (${(c.requests / result.seconds).toFixed(1)}/s), 429 retried ${c.rateLimited}, 5xx ${c.serverErrors || 0}, errors ${c.errors}; pongs ${c.pongs}`,
  );
  lines.push('', 'Endpoint latency', formatTable(result.endpoints));
  lines.push('', 'Event latency (request sent → WebSocket arrival)', formatTable(result.events));
  for (const n of result.notes) lines.push(`note: ${n}`);
  lines.push('');
  if (result.violations.length === 0) lines.push('Contract violations: none');
  else {
    lines.push(`Contract violations: ${result.violations.length}`);
    const byKind = {};
    for (const v of result.violations) byKind[v.kind] = (byKind[v.kind] || 0) + 1;
    lines.push(
      `  by kind: ${Object.entries(byKind)
        .map(([k, n]) => `${k} ${n}`)
        .join(', ')}`,
    );
    // Every violation goes to --json; the console shows the first ones.
    for (const v of result.violations.slice(0, 40)) lines.push(`  [${v.at}s] ${v.kind}: ${v.message}`);
    if (result.violations.length > 40) lines.push(`  … and ${result.violations.length - 40} more`);
  }
  return lines.join('\n');
}

module.exports = { formatSummary };
