/**
 * Waits for a condition by polling it (tests wait for what they need, never for a fixed time);
 * fails after `timeoutMs`. Resolves with how long it took.
 */
export async function until(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<number> {
  const started = Date.now();
  while (!(await condition())) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}
