/** PostgreSQL's unique_violation, raised through TypeORM's QueryFailedError. */
export function isUniqueViolation(err: unknown): boolean {
  return pgCode(err) === '23505';
}

/** Any integrity-constraint violation (unique, check, foreign key, not null). */
export function isIntegrityViolation(err: unknown): boolean {
  return pgCode(err)?.startsWith('23') ?? false;
}

function pgCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; driverError?: { code?: unknown } };
  const code = e.driverError?.code ?? e.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * TypeORM's postgres driver answers UPDATE and DELETE with `[rows, affectedCount]` and every other
 * statement with `rows`; this returns the rows either way (for `UPDATE ... RETURNING`).
 */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result) && result.length === 2 && Array.isArray(result[0]) && typeof result[1] === 'number') {
    return result[0] as T[];
  }
  return result as T[];
}
