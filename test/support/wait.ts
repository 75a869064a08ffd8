const POLL_MS = 10;

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Waits for a condition, not for a time: polls `probe` until it returns something truthy (and
 * returns that), or fails after `timeoutMs` saying what it waited for. The timeout only bounds a
 * broken run; a healthy one goes on as soon as the condition holds, however busy the machine.
 */
export async function waitFor<T>(what: string, probe: () => T | Promise<T>, timeoutMs = 10_000): Promise<Truthy<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Retries an assertion (a function that throws while it does not hold) until it passes; rethrows its last failure. */
export async function eventually(assertion: () => void | Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await assertion();
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
