import fc from 'fast-check';
import {
  hasTooManyQueryParameters,
  jsonShapeProblem as shapeOfBytes,
  MAX_JSON_ARRAY_ELEMENTS,
  MAX_JSON_DEPTH,
  MAX_JSON_OBJECT_KEYS,
  MAX_JSON_VALUES,
  MAX_QUERY_PARAMETERS,
} from './request-limits';

const jsonShapeProblem = (text: string) => shapeOfBytes(Buffer.from(text));

const isNestedTooDeeply = (text: string): boolean => jsonShapeProblem(text) === 'depth';

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('jsonShapeProblem: depth', () => {
  it('allows exactly the limit and refuses one level more, for arrays and objects', () => {
    expect(isNestedTooDeeply(arrays(MAX_JSON_DEPTH))).toBe(false);
    expect(isNestedTooDeeply(arrays(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(isNestedTooDeeply(objects(MAX_JSON_DEPTH))).toBe(false);
    expect(isNestedTooDeeply(objects(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(JSON.parse(objects(3))).toEqual({ a: { a: {} } });
  });

  it('counts depth, not the number of brackets', () => {
    const wide = `[${Array.from({ length: 10_000 }, () => '{"x":[1,{"y":[]}]}').join(',')}]`;
    expect(isNestedTooDeeply(wide)).toBe(false);
  });

  it('ignores brackets inside strings, including after escaped quotes and backslashes', () => {
    expect(isNestedTooDeeply(JSON.stringify({ s: '['.repeat(1000) }))).toBe(false);
    expect(isNestedTooDeeply(JSON.stringify({ s: `\\"${'{'.repeat(1000)}` }))).toBe(false);
    expect(isNestedTooDeeply(JSON.stringify({ s: '\\', t: '['.repeat(100) }))).toBe(false);
    expect(isNestedTooDeeply(`{"s":"\\\\",${'"x":['.repeat(1)}${arrays(MAX_JSON_DEPTH)}]}`)).toBe(true);
  });

  it('handles thousands of levels without recursion', () => {
    expect(isNestedTooDeeply(arrays(1_000_000))).toBe(true);
    expect(isNestedTooDeeply(`{"phone":"+15550001234","x":${arrays(2000)}}`)).toBe(true);
  });

  it('accepts ordinary bodies', () => {
    expect(isNestedTooDeeply('{"latitude":52.52,"longitude":13.405,"heading":90,"speed":12.5}')).toBe(false);
    expect(isNestedTooDeeply('')).toBe(false);
    expect(isNestedTooDeeply('42')).toBe(false);
  });
});

const keys = (n: number, key = (i: number) => `k${i}`): string => `{${Array.from({ length: n }, (_, i) => `"${key(i)}":${i}`).join(',')}}`;
const elements = (n: number): string => `[${Array.from({ length: n }, (_, i) => i).join(',')}]`;

describe('jsonShapeProblem: keys per object and elements per array', () => {
  it('allows exactly the limits and refuses one more, at the top and nested', () => {
    expect(jsonShapeProblem(keys(MAX_JSON_OBJECT_KEYS))).toBeUndefined();
    expect(jsonShapeProblem(keys(MAX_JSON_OBJECT_KEYS + 1))).toBe('keys');
    expect(jsonShapeProblem(`{"a":{"b":${keys(MAX_JSON_OBJECT_KEYS + 1)}}}`)).toBe('keys');
    expect(jsonShapeProblem(elements(MAX_JSON_ARRAY_ELEMENTS))).toBeUndefined();
    expect(jsonShapeProblem(elements(MAX_JSON_ARRAY_ELEMENTS + 1))).toBe('elements');
    expect(jsonShapeProblem(`{"first_name":${elements(MAX_JSON_ARRAY_ELEMENTS + 1)}}`)).toBe('elements');
  });

  it('counts per container: siblings and parents do not add up', () => {
    const half = keys(MAX_JSON_OBJECT_KEYS - 1);
    expect(jsonShapeProblem(`{"a":${half},"b":${half},"c":[${half},${half}]}`)).toBeUndefined();
    // An array of 10,000 objects: the array's count, not the objects' keys.
    expect(jsonShapeProblem(`[${Array.from({ length: 5000 }, () => '{"x":1,"y":2}').join(',')}]`)).toBeUndefined();
    // Duplicate keys count: each costs the parser and validation as much as a new one.
    expect(jsonShapeProblem(keys(MAX_JSON_OBJECT_KEYS + 1, () => 'same'))).toBe('keys');
  });

  it('ignores commas inside strings, after escaped quotes and backslashes', () => {
    expect(jsonShapeProblem(JSON.stringify({ s: ','.repeat(50_000) }))).toBeUndefined();
    expect(jsonShapeProblem(JSON.stringify({ s: `\\"${','.repeat(50_000)}` }))).toBeUndefined();
    expect(jsonShapeProblem(JSON.stringify({ s: '\\', t: ','.repeat(50_000) }))).toBeUndefined();
    expect(jsonShapeProblem(`{"s":"\\\\",${keys(MAX_JSON_OBJECT_KEYS + 1).slice(1)}`)).toBe('keys');
  });

  it('agrees with JSON.parse on key counts whatever the strings hold (quotes, backslashes, any length)', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '"', '\\', ',', '{', '[', 'é', '😀'), maxLength: 80 });
    fc.assert(
      fc.property(fc.integer({ min: 990, max: 1010 }), text, text, (n, key, value) => {
        const body = `{${Array.from({ length: n }, (_, i) => `${JSON.stringify(key + i)}:${JSON.stringify(value)}`).join(',')}}`;
        expect(Object.keys(JSON.parse(body))).toHaveLength(n);
        expect(jsonShapeProblem(body)).toBe(n > MAX_JSON_OBJECT_KEYS ? 'keys' : undefined);
      }),
      { numRuns: 60, seed: 15 },
    );
  });

  it('bounds the values of the whole body, in however many containers', () => {
    const objects = (n: number) => `[${Array.from({ length: n }, () => keys(MAX_JSON_OBJECT_KEYS - 1)).join(',')}]`;
    expect(jsonShapeProblem(objects(21))).toBe('values');
    expect(jsonShapeProblem(`[${Array.from({ length: 3 }, () => elements(MAX_JSON_ARRAY_ELEMENTS)).join(',')}]`)).toBe('values');
    expect(jsonShapeProblem(objects(Math.floor(MAX_JSON_VALUES / MAX_JSON_OBJECT_KEYS) - 1))).toBeUndefined();
  });

  it('reads the structure of UTF-8 bytes without decoding them (multi-byte characters never look like ASCII)', () => {
    expect(jsonShapeProblem(JSON.stringify({ s: `😀"é,{[`.repeat(5000) }))).toBeUndefined();
    expect(jsonShapeProblem(`{"名前":${keys(MAX_JSON_OBJECT_KEYS + 1, (i) => `ключ${i}`)}}`)).toBe('keys');
  });

  it('stops at the first key over the limit of a megabyte of keys; an unterminated string gets no verdict', () => {
    const body = keys(90_000);
    expect(body.length).toBeGreaterThan(1_000_000);
    expect(jsonShapeProblem(body)).toBe('keys');
    expect(jsonShapeProblem('{"a":"' + 'x'.repeat(1_000_000))).toBeUndefined();
  });
});

describe('hasTooManyQueryParameters', () => {
  const query = (n: number, each = 'a=1'): string => `/api/v1/x?${Array.from({ length: n }, () => each).join('&')}`;

  it('allows exactly the limit and refuses one more', () => {
    expect(hasTooManyQueryParameters(query(MAX_QUERY_PARAMETERS))).toBe(false);
    expect(hasTooManyQueryParameters(query(MAX_QUERY_PARAMETERS + 1))).toBe(true);
    expect(hasTooManyQueryParameters(query(MAX_QUERY_PARAMETERS + 1, 'a'))).toBe(true);
  });

  it('passes URLs without a query and long single values', () => {
    expect(hasTooManyQueryParameters('/api/v1/driver/location')).toBe(false);
    expect(hasTooManyQueryParameters(`/api/v1/x?q=${'a'.repeat(10_000)}`)).toBe(false);
  });
});
