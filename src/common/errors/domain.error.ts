/**
 * Base class for every rule a service refuses. Services throw these (never HttpException); the
 * global filter turns the code into an HTTP status through a map that must name every code.
 */
export class DomainError<C extends string = string> extends Error {
  constructor(
    readonly code: C,
    message: string,
    readonly details?: ReadonlyArray<{ field: string; message: string }>,
    /** Seconds until the caller may try again; sent as `Retry-After` with 429s. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}
