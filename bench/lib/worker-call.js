'use strict';

/**
 * Sends `msg` to a forked bench worker and resolves with its first reply of `replyType`; a reply
 * of type 'error' rejects (prefixed with the worker's name).
 */
function workerCall(worker, msg, replyType, name = 'worker') {
  return new Promise((resolve, reject) => {
    const onMessage = (m) => {
      if (m.type === 'error') {
        worker.off('message', onMessage);
        reject(new Error(`${name}: ${m.message}`));
      } else if (m.type === replyType) {
        worker.off('message', onMessage);
        resolve(m);
      }
    };
    worker.on('message', onMessage);
    // With a callback, a closed channel rejects this call instead of emitting an unhandled 'error'.
    worker.send(msg, (err) => {
      if (err) {
        worker.off('message', onMessage);
        reject(err);
      }
    });
  });
}

/** The open-file limit child processes inherit (ulimit -n), undefined when unknown. */
function openFileLimit() {
  try {
    const line = require('node:fs')
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line && line.split(/\s{2,}/)[1];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

module.exports = { workerCall, openFileLimit };
