import { col, group, nullable, only, readModel } from './read-model';

/** A field declared for one audience: every other reader gets null, in SQL and in a built view. */
describe('read model audiences', () => {
  const MODEL = readModel(
    group('ThingDto', {
      id: col.uuid('t.id'),
      secret: only('owner', nullable(col.text('t.secret'))),
      inner: group('InnerDto', { code: only('owner', nullable(col.text('t.code'))), name: col.text('t.name') }),
    }),
  );

  it('the full SELECT list reads every column; a reader outside the audience reads NULL in its place', () => {
    expect(MODEL.columns).toBe('t.id, t.secret, t.code, t.name');
    expect(MODEL.columnsFor(null)).toBe('t.id, NULL AS secret, NULL AS code, t.name');
    expect(MODEL.columnsFor('owner')).toBe('t.id, t.secret, t.code, t.name');
  });

  it('a view is copied with those fields null for anyone else, returned as it is for the audience', () => {
    const view = MODEL.toJson({ id: 'a', secret: '0427', code: 'x', name: 'n' });
    expect(MODEL.viewFor(view, 'owner')).toBe(view);
    const other = MODEL.viewFor(view, undefined);
    expect(other).toEqual({ id: 'a', secret: null, inner: { code: null, name: 'n' } });
    expect(view.secret).toBe('0427');
    const nothingHidden = MODEL.toJson({ id: 'b', secret: null, code: null, name: 'n' });
    expect(MODEL.viewFor(nothingHidden, undefined)).toBe(nothingHidden);
  });

  it('the OpenAPI facts say such a field may be null', () => {
    expect(MODEL.root.fields.secret.api.nullable).toBe(true);
    expect(MODEL.root.fields.secret.audience).toBe('owner');
  });
});
