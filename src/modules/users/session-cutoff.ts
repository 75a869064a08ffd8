import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Access tokens carry `iat` in whole seconds (CONTRACT.md: the claims stay exactly the spec's), so
 * a token signed in the same second as a revocation cannot be told apart from one signed just
 * before it. The cut-off is therefore the next whole second: every token signed up to now has a
 * smaller `iat` and is refused. Whoever revokes waits until that second has begun before answering
 * (at most 1 s, on logout and replay only), so a token signed after the answer (a new login)
 * has `iat` >= the cut-off and is accepted. Instance clocks are assumed in sync, as for `exp`.
 */
export function sessionCutoffSeconds(nowMs: number = Date.now()): number {
  return Math.floor(nowMs / 1000) + 1;
}

/** Resolves once this instance's clock has reached the cut-off second. */
export async function untilCutoff(cutoffSeconds: number): Promise<void> {
  const wait = cutoffSeconds * 1000 - Date.now();
  if (wait > 0) await sleep(wait);
}
