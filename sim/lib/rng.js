'use strict';
/** Seeded PRNG (mulberry32): the same seed gives the same choices, so a run can be repeated. */
function createRng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    int: (min, max) => Math.floor(min + (max - min + 1) * next()),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

/** A child seed per user, so one user's choices do not depend on how the others' calls interleave. */
function deriveSeed(seed, index) {
  return (Math.imul(seed ^ 0x9e3779b9, 2654435761) + Math.imul(index + 1, 0x85ebca6b)) >>> 0;
}

module.exports = { createRng, deriveSeed };
