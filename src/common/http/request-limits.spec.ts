import { hasTooManyQueryParameters, isNestedTooDeeply, MAX_JSON_DEPTH, MAX_QUERY_PARAMETERS } from './request-limits';

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('isNestedTooDeeply', () => {
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
