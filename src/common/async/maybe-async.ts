/**
 * A value now, or a promise of it: for the few hot paths where answering without a promise was
 * measured to pay (`node bench/maybe-async.js`; docs/decisions.md 2026-11-25: the single-category
 * estimate and ride details). Everywhere else code is plain async.
 *
 * The one rule these helpers keep: success may be synchronous, failure never is. A step that throws
 * becomes a rejected promise, so a caller sees the same failure whether the data was cached (warm) or
 * had to be loaded (cold).
 */
export type MaybeAsync<T> = T | Promise<T>;

/** Runs the step; a synchronous throw becomes a rejected promise. */
export function maybeAsync<T>(step: () => MaybeAsync<T>): MaybeAsync<T> {
  try {
    return step();
  } catch (err) {
    return Promise.reject(err);
  }
}

/** `next` applied to the value at once when it is there, else once it resolves; failures reject. */
export function thenMaybe<T, U>(value: MaybeAsync<T>, next: (value: T) => MaybeAsync<U>): MaybeAsync<U> {
  return value instanceof Promise ? value.then(next) : maybeAsync(() => next(value));
}

/** Both values, without a promise when neither is one. */
export function bothMaybe<A, B>(a: MaybeAsync<A>, b: MaybeAsync<B>): MaybeAsync<[A, B]> {
  return a instanceof Promise || b instanceof Promise ? Promise.all([a, b]) : [a, b];
}
