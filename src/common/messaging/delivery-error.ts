/**
 * Why a provider did not take a message. `unavailable` is worth another try (a 5xx or 429, an SMTP
 * 4xx, no connection, no answer); `refused` is not (the provider said no: bad credentials, a
 * permanent rejection); `invalid_recipient` says the address itself is wrong (Twilio 21211, 21614).
 */
export type DeliveryFailureKind = 'unavailable' | 'refused' | 'invalid_recipient';

export class DeliveryError extends Error {
  constructor(
    readonly kind: DeliveryFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'DeliveryError';
  }
}

/** Anything a provider call threw, as a DeliveryError (an unexpected failure counts as worth a retry). */
export function asDeliveryError(err: unknown): DeliveryError {
  if (err instanceof DeliveryError) return err;
  return new DeliveryError('unavailable', err instanceof Error ? err.message : String(err));
}

/** Rejects with `unavailable` when `signal` aborts first; the abandoned call is left to its own timeouts. */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, what: string): Promise<T> {
  if (signal.aborted) return Promise.reject(new DeliveryError('unavailable', `${what}: no answer in time`));
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(new DeliveryError('unavailable', `${what}: no answer in time`));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}
