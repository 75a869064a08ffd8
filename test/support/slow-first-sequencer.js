/**
 * Jest's order, with one better guess: a file Jest has no time for yet (every file in a fresh clone)
 * is ordered by the longest timeout its tests declare (`}, 120_000)`), the files that say they are
 * slow first, and only then by size as Jest does. A slow file started last is the run's tail: with
 * Jest's guess by size, the short files holding the slowest tests (crossed accepts, the simulator)
 * ran at the end.
 */
const Sequencer = require('@jest/test-sequencer').default;
const { readFileSync } = require('node:fs');

function longestDeclaredTimeout(path) {
  let longest = 0;
  for (const [, ms] of readFileSync(path, 'utf8').matchAll(/\}, ([0-9_]{4,})\)/g)) longest = Math.max(longest, Number(ms.replaceAll('_', '')));
  return longest;
}

class SlowFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    const untimed = sorted.filter((test) => test.duration == null && !this.hasFailed(test));
    if (untimed.length === 0) return sorted;
    const declared = new Map(untimed.map((test) => [test, longestDeclaredTimeout(test.path)]));
    // Array.prototype.sort is stable: equal declarations keep Jest's order.
    const guessed = [...untimed].sort((a, b) => declared.get(b) - declared.get(a));
    let next = 0;
    return sorted.map((test) => (declared.has(test) ? guessed[next++] : test));
  }
}

SlowFirstSequencer.longestDeclaredTimeout = longestDeclaredTimeout;
module.exports = SlowFirstSequencer;
