/**
 * Deepest nesting of objects and arrays a request body or WebSocket frame may have. Validation
 * (class-transformer) walks the parsed value recursively, so a body nested a few thousand levels
 * deep would overflow the stack; no legitimate payload of this API goes past a handful of levels.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Most keys one JSON object, and most elements one array, may have (CONTRACT §1). Validation's cost
 * grows faster than linearly with the key count (class-transformer: 40k keys took 2.35 s of one
 * core, 200k keys 112 s), and no DTO of this API has more than a few dozen fields.
 */
export const MAX_JSON_OBJECT_KEYS = 1000;
export const MAX_JSON_ARRAY_ELEMENTS = 10_000;
/**
 * Most values (object entries and array elements) a whole body may hold. The per-container limits
 * alone still let a 6 MB body carry half a million keys in 500 objects, which JSON.parse takes
 * 0.1-0.7 s to build (one core, busy to idle machine); no request of this API has more than about
 * thirty values, and a profile picture is one string.
 */
export const MAX_JSON_VALUES = 20_000;

export type JsonShapeProblem = 'depth' | 'keys' | 'elements' | 'values';

/** The sentence for a shape problem, about a "Request body" or a (WebSocket) "Message". */
export function jsonShapeMessage(problem: JsonShapeProblem, subject: 'Request body' | 'Message'): string {
  switch (problem) {
    case 'depth':
      return `${subject} is nested too deeply (at most ${MAX_JSON_DEPTH} levels)`;
    case 'keys':
      return `${subject} has an object with more than ${MAX_JSON_OBJECT_KEYS} keys`;
    case 'elements':
      return `${subject} has an array with more than ${MAX_JSON_ARRAY_ELEMENTS} elements`;
    case 'values':
      return `${subject} has more than ${MAX_JSON_VALUES} values in all`;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

// Per open container: commas seen so far, and whether it is an object. Reused (the pass is synchronous).
const separators = new Int32Array(MAX_JSON_DEPTH + 2);
const objects = new Uint8Array(MAX_JSON_DEPTH + 2);

/**
 * Whether JSON text nests deeper than MAX_JSON_DEPTH, has an object of more than
 * MAX_JSON_OBJECT_KEYS keys or an array of more than MAX_JSON_ARRAY_ELEMENTS elements, or more than
 * MAX_JSON_VALUES values in all: one iterative pass over the raw UTF-8 bytes, before they are even
 * decoded, so a refused body costs no decoding, parsing or per-key work. (Every byte of a multi-byte
 * UTF-8 character is ≥ 0x80: the ASCII structure is read correctly without decoding.) Commas count
 * entries (duplicate keys too); commas and brackets inside strings do not count, and strings are
 * skipped with indexOf. Malformed text may get any answer: JSON.parse rejects it afterwards anyway.
 */
export function jsonShapeProblem(bytes: Uint8Array): JsonShapeProblem | undefined {
  let depth = 0;
  let values = 0;
  for (let i = 0, n = bytes.length; i < n; i++) {
    const c = bytes[i];
    if (c === QUOTE) {
      i = endOfString(bytes, i);
      if (i < 0) return undefined;
    } else if (c === COMMA) {
      // n commas separate n + 1 entries.
      if (depth > 0 && ++separators[depth]! >= (objects[depth] ? MAX_JSON_OBJECT_KEYS : MAX_JSON_ARRAY_ELEMENTS)) {
        return objects[depth] ? 'keys' : 'elements';
      }
      if (++values >= MAX_JSON_VALUES) return 'values';
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > MAX_JSON_DEPTH) return 'depth';
      separators[depth] = 0;
      objects[depth] = c === OPEN_BRACE ? 1 : 0;
    } else if ((c === CLOSE_BRACE || c === CLOSE_BRACKET) && depth > 0) {
      depth--;
    }
  }
  return undefined;
}

/** Bytes of a string walked one by one before searching natively: most keys and values are short. */
const SHORT_STRING = 32;

/** The index of the quote that closes the string opening at `start`; -1 when it never closes. */
function endOfString(bytes: Uint8Array, start: number): number {
  let end = start + 1;
  for (const stop = Math.min(bytes.length, start + SHORT_STRING); end < stop; end++) {
    const c = bytes[end];
    if (c === QUOTE) return end;
    if (c === BACKSLASH) end++;
  }
  // A long string: search for quotes natively; one is closing when an even run of backslashes precedes it.
  end--;
  for (;;) {
    end = bytes.indexOf(QUOTE, end + 1);
    if (end < 0) return -1;
    let backslashes = 0;
    for (let k = end - 1; k > start && bytes[k] === BACKSLASH; k--) backslashes++;
    if ((backslashes & 1) === 0) return end;
  }
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
