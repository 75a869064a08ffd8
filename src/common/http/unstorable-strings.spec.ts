import { findUnstorableString, isStorableString } from './unstorable-strings';

describe('strings PostgreSQL cannot store', () => {
  it('refuses U+0000 and unpaired surrogates, keeps well-formed text (pairs, accents, other controls)', () => {
    for (const bad of ['\u0000', 'a\u0000', '\ud800', 'x\udfffy', '\ude00\ud83d', 'ok😀\ud83d']) expect([bad, isStorableString(bad)]).toEqual([bad, false]);
    for (const good of ['', 'Ada', 'Zoë', '😀', '\u0001\u001f\u007f', '\ufffd', '\u202e']) expect([good, isStorableString(good)]).toEqual([good, true]);
  });

  it('names the first offending string by its dotted path, prefixed by the parameter name', () => {
    expect(findUnstorableString({ a: 1, b: 'ok', pickup: { address: 'x\u0000' } }, '')).toBe('pickup.address');
    expect(findUnstorableString({ items: ['ok', { name: '\ud800' }] }, '')).toBe('items.1.name');
    expect(findUnstorableString('a\u0000', 'ride_id')).toBe('ride_id');
    expect(findUnstorableString('a\u0000', '')).toBe('');
    expect(findUnstorableString({ status: '\u0000' }, 'query')).toBe('query.status');
  });

  it('finds nothing in clean values of any type', () => {
    for (const value of [undefined, null, 0, true, 'ok', [], {}, { a: [1, 'b', { c: null }] }]) expect(findUnstorableString(value, '')).toBeUndefined();
  });
});
