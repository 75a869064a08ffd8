/**
 * Deepest nesting of objects and arrays a request body or WebSocket frame may have. Validation
 * (class-transformer) walks the parsed value recursively, so a body nested a few thousand levels
 * deep would overflow the stack; no legitimate payload of this API goes past a handful of levels.
 */
export const MAX_JSON_DEPTH = 32;

export const JSON_TOO_DEEP_MESSAGE = `Request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/**
 * Whether JSON text nests objects/arrays deeper than `limit`, found by one iterative pass over the
 * raw text before JSON.parse (brackets inside strings do not count). Malformed text may get either
 * answer; JSON.parse rejects it afterwards anyway.
 */
export function isNestedTooDeeply(text: string, limit = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0, n = text.length; i < n; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

/**
 * Most query parameters a request may carry. Fastify's parser is flat (`a[b]` is just a key) and
 * linear, but validation reports every unknown parameter: 10,000 of them cost half a second of CPU
 * and a 600 kB error body. No endpoint takes more than a handful.
 */
export const MAX_QUERY_PARAMETERS = 100;

export const TOO_MANY_QUERY_PARAMETERS_MESSAGE = `Too many query parameters (at most ${MAX_QUERY_PARAMETERS})`;

const AMPERSAND = 0x26;

/** Whether the query string has more than `limit` parameters; empty ones (`&&`), which the parser skips, may go uncounted. */
export function hasTooManyQueryParameters(url: string, limit = MAX_QUERY_PARAMETERS): boolean {
  const start = url.indexOf('?');
  // Each parameter past the first needs a separator and a character: a short query cannot be over.
  if (start === -1 || url.length - start <= 2 * limit) return false;
  let parameters = 1;
  for (let i = start + 1, n = url.length; i < n; i++) {
    if (url.charCodeAt(i) === AMPERSAND && ++parameters > limit) return true;
  }
  return false;
}
