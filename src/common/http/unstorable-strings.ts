declare global {
  interface String {
    /** ES2024 (V8 11.1, every supported Node): false when the string holds a lone surrogate. */
    isWellFormed(): boolean;
  }
}

/**
 * Whether PostgreSQL can store the string as text: not U+0000 (its text types refuse the byte, so
 * the INSERT fails) and no unpaired UTF-16 surrogate (not encodable as UTF-8; the driver would
 * silently store U+FFFD instead). Both checks are native scans, a few nanoseconds on a short string.
 */
export function isStorableString(text: string): boolean {
  return text.indexOf('\u0000') === -1 && text.isWellFormed();
}

/**
 * The dotted path (`pickup.address`, `items.2`) of the first string anywhere in `value` that
 * PostgreSQL cannot store, prefixed by `path`; `path` itself when `value` is such a string;
 * undefined when there is none. Walks parsed JSON, bounded by the request limits (depth, keys,
 * elements); allocates nothing unless it finds one.
 */
export function findUnstorableString(value: unknown, path: string): string | undefined {
  const found = find(value);
  if (found === undefined) return undefined;
  const segments = found.reverse();
  if (path) segments.unshift(path);
  return segments.join('.');
}

/** The path of the offending string, innermost segment first (built only on the way out of a hit). */
function find(value: unknown): string[] | undefined {
  if (typeof value === 'string') return isStorableString(value) ? undefined : [];
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = find(value[i]);
      if (found) return withSegment(found, String(i));
    }
    return undefined;
  }
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const found = find((value as Record<string, unknown>)[key]);
    if (found) return withSegment(found, key);
  }
  return undefined;
}

function withSegment(path: string[], segment: string): string[] {
  path.push(segment);
  return path;
}
