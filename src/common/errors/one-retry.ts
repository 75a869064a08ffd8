/**
 * How a call to an outside provider (an SMS or mail relay, Stripe) is retried: one retry when the
 * failure is worth one (the provider is unreachable, overloaded or slow), both attempts within one
 * time budget, so a caller waits at most `budgetMs` before it hears that the provider is down.
 */
export interface RetryBudget {
  /** Both attempts, pauses included, end within this. */
  budgetMs: number;
  /** The first attempt may use this much, so that a provider that hangs still leaves time for the retry. */
  firstAttemptMs: number;
  /** A fast failure (connection refused) is retried after this pause rather than at once. */
  pauseMs: number;
}

/**
 * Runs `attempt` (given the milliseconds it may take and its number, 1 or 2) and once more when it
 * failed in a way `worthRetry` accepts and time is left. Resolves with the first success; rejects
 * with the last failure.
 */
export async function withOneRetry<T>(
  budget: RetryBudget,
  attempt: (timeoutMs: number, attemptNumber: number) => Promise<T>,
  worthRetry: (err: unknown) => boolean,
): Promise<T> {
  const deadline = Date.now() + budget.budgetMs;
  try {
    return await attempt(Math.min(budget.budgetMs, budget.firstAttemptMs), 1);
  } catch (err) {
    if (!worthRetry(err)) throw err;
    await pause(Math.min(budget.pauseMs, Math.max(0, deadline - Date.now())));
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw err;
    return attempt(remaining, 2);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
