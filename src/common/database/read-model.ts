import { compileJsonShape, Conversion, LeafSpec, ObjectSpec } from './json-shape';

/**
 * A read model declared once: each field says where its value comes from (a column of the SELECT,
 * or a key path in a jsonb column), how it is written and how it is documented. From that one
 * declaration come the SELECT list, the row type, the view type, the JSON shape (compiled to
 * JavaScript and to SQL by json-shape.ts) and the OpenAPI schema (read-model-openapi.ts).
 * Adding a field to a response is one line here, plus the migration that adds its column.
 */

/** How a field is documented (an OpenAPI property; its type comes from the field's kind). */
export interface FieldDoc {
  example?: unknown;
  description?: string;
  format?: string;
}

export interface ApiFacts extends FieldDoc {
  type: 'string' | 'number' | 'boolean' | 'object';
  enum?: readonly string[];
  nullable?: true;
}

/** A leaf of type V in the view, contributing R to the row (`{}` for a jsonb path). */
export interface Field<V, R extends object> {
  readonly kind: 'field';
  readonly from: readonly [string, ...string[]];
  readonly as?: Conversion;
  /** The SELECT-list item (`r.ride_code`, `pu.first_name AS p_first_name`); none for a jsonb path. */
  readonly select?: string;
  readonly api: ApiFacts;
  /** The one audience that sees the value; every other reader gets null (see `only`). */
  readonly audience?: string;
  /** Type carrier only; never set. */
  readonly types?: { view: V; row: R };
}

type Selects = ReadonlyArray<Field<unknown, object>>;

/** A nested object of the view; `nullable` when `nullIf` may make it null. */
export interface Group<F extends Fields, N extends boolean, S extends Selects = Selects> {
  readonly kind: 'group';
  /** Its schema's name in the OpenAPI document. */
  readonly name: string;
  readonly fields: F;
  readonly nullIf: ReadonlyArray<readonly [string, ...string[]]>;
  readonly nullable: N;
  readonly description?: string;
  /** Columns the row needs beside the fields' own (a jsonb column the fields read paths of). */
  readonly selects: S;
}

export type Node = Field<unknown, object> | Group<Fields, boolean>;
export type Fields = { readonly [key: string]: Node };

type NodeView<N> =
  N extends Field<infer V, object> ? V : N extends Group<infer F, infer Null, Selects> ? ViewOf<F> | (Null extends true ? null : never) : never;
/** The view an endpoint or event carries. */
export type ViewOf<F extends Fields> = { -readonly [K in keyof F]: NodeView<F[K]> };

type RowOfSelects<S> = S extends ReadonlyArray<infer E> ? (E extends Field<unknown, infer R> ? R : never) : never;
type GroupRow<G> = G extends Group<infer F, boolean, infer S> ? RowParts<F> | RowOfSelects<S> : never;
type RowParts<F extends Fields> = { [K in keyof F]: F[K] extends Field<unknown, infer R> ? R : GroupRow<F[K]> }[keyof F];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type Flat<T> = { [K in keyof T]: T[K] };
/** The row a group's SELECT list yields. */
export type RowOf<G extends Group<Fields, boolean>> = Flat<UnionToIntersection<GroupRow<G>>>;
/** The view a group describes. */
export type ViewOfGroup<G extends Group<Fields, boolean>> = ViewOf<G['fields']>;

/** `r.ride_code` → ride_code; `pu.first_name AS p_first_name` → p_first_name. */
export type AliasOf<S extends string> = S extends `${string} AS ${infer A}` ? A : S extends `${string}.${infer C}` ? C : S;

/** `expr AS alias`, typed so that the alias is known to the row type whatever the expression. */
export function sqlAs<A extends string>(expr: string, alias: A): `${string} AS ${A}` {
  return `${expr} AS ${alias}`;
}

/** The row key a SELECT-list item yields. */
export function aliasOf(select: string): string {
  const as = / AS ([a-z_][a-z0-9_]*)$/i.exec(select);
  if (as) return as[1]!;
  return select.slice(select.lastIndexOf('.') + 1);
}

function column<V, R>(as: Conversion | undefined, api: ApiFacts) {
  return <S extends string>(select: S, doc: FieldDoc = {}): Field<V, { [A in AliasOf<S>]: R }> => ({
    kind: 'field',
    from: [aliasOf(select)],
    select,
    ...(as ? { as } : {}),
    api: { ...api, ...doc },
  });
}

/** Fields read from a column of the SELECT, by how the value is stored and written. */
export const col = {
  text: column<string, string>(undefined, { type: 'string' }),
  uuid: column<string, string>(undefined, { type: 'string', format: 'uuid' }),
  /** Integer or float8 columns (pg returns numbers). */
  number: column<number, number>(undefined, { type: 'number' }),
  /** numeric columns (pg returns text), written as numbers. */
  decimal: column<number, string>('number', { type: 'number' }),
  /** Integer minor units, written as major units. */
  money: column<number, number>('major', { type: 'number' }),
  /** Written as a number rounded to hundredths. */
  hundredths: column<number, number>('hundredths', { type: 'number' }),
  /** A timestamp, written as ISO-8601 UTC. */
  time: column<string, Date>('iso', { type: 'string' }),
  /** Fixed-width text (char(n)), written trimmed. */
  trimmed: column<string, string>('trim', { type: 'string' }),
  oneOf: <const E extends readonly string[]>(values: E) => column<E[number], E[number]>(undefined, { type: 'string', enum: values }),
  /** A jsonb column the row carries for fields that read paths inside it (see `group`'s `selects`). */
  json: <T>() => column<T, T>(undefined, { type: 'object' }),
};

function path<V>(as: Conversion | undefined, api: ApiFacts) {
  return (column: string, ...keys: string[]): Field<V, Record<never, never>> => ({ kind: 'field', from: [column, ...keys], ...(as ? { as } : {}), api });
}

/** Fields read from a key path inside a jsonb column of the row. */
export const at = {
  text: path<string>(undefined, { type: 'string' }),
  number: path<number>(undefined, { type: 'number' }),
  boolean: path<boolean>(undefined, { type: 'boolean' }),
  money: path<number>('major', { type: 'number' }),
  hundredths: path<number>('hundredths', { type: 'number' }),
  oneOf: <const E extends readonly string[]>(values: E) => path<E[number]>(undefined, { type: 'string', enum: values }),
};

/** The field may be null (its column is nullable). */
export function nullable<V, R extends object>(field: Field<V, R>, doc: FieldDoc = {}): Field<V | null, { [K in keyof R]: R[K] | null }> {
  return { ...field, api: { ...field.api, ...doc, nullable: true } } as Field<V | null, { [K in keyof R]: R[K] | null }>;
}

/**
 * The field's value is for `audience` alone (the ride's start PIN: its passenger); every other
 * reader's copy has null there, in the SELECT list they read (`columnsFor`) and in a view already
 * built (`viewFor`). Declared here, so that no endpoint or event has to remember it.
 */
export function only<V, R extends object>(audience: string, field: Field<V | null, R>): Field<V | null, R> {
  return { ...field, audience, api: { ...field.api, nullable: true } };
}

/** Documents a field (example, description) without changing it. */
export function doc<V, R extends object>(field: Field<V, R>, more: FieldDoc): Field<V, R> {
  return { ...field, api: { ...field.api, ...more } };
}

type NullIf = ReadonlyArray<readonly [string, ...string[]]>;

export function group<F extends Fields, const S extends Selects = []>(
  name: string,
  fields: F,
  options?: { description?: string; selects?: S },
): Group<F, false, S>;
export function group<F extends Fields, const S extends Selects = []>(
  name: string,
  fields: F,
  options: { nullIf: NullIf; description?: string; selects?: S },
): Group<F, true, S>;
export function group<F extends Fields>(
  name: string,
  fields: F,
  options: { nullIf?: NullIf; description?: string; selects?: Selects } = {},
): Group<F, boolean> {
  const nullIf = options.nullIf ?? [];
  return {
    kind: 'group',
    name,
    fields,
    nullIf,
    nullable: nullIf.length > 0,
    selects: options.selects ?? [],
    ...(options.description ? { description: options.description } : {}),
  };
}

/** The group, null when any of `nullIf` (row keys or jsonb paths) is null, as one use of it is documented. */
export function orNull<F extends Fields, S extends Selects>(g: Group<F, boolean, S>, nullIf: NullIf, description?: string): Group<F, true, S> {
  return { ...g, nullIf, nullable: true, ...(description ? { description } : {}) };
}

/** The JSON shape json-shape.ts compiles (the view's keys in declaration order). */
export function shapeOf<G extends Group<Fields, boolean>>(root: G): ObjectSpec<ViewOfGroup<G>, RowOf<G>> {
  const spec = (node: Node): LeafSpec<object> | ObjectSpec<unknown, object> => {
    if (node.kind === 'field') return (node.as ? { from: node.from, as: node.as } : { from: node.from }) as LeafSpec<object>;
    const fields = Object.fromEntries(Object.entries(node.fields).map(([key, child]) => [key, spec(child)]));
    return (node.nullIf.length > 0 ? { fields, nullIf: node.nullIf } : { fields }) as ObjectSpec<unknown, object>;
  };
  return spec(root) as unknown as ObjectSpec<ViewOfGroup<G>, RowOf<G>>;
}

/**
 * The SELECT list: every column the fields read, once each (two fields naming one alias must agree).
 * With `reader` (an audience, or null for none), the fields of other audiences are selected as NULL.
 */
export function selectListOf(root: Group<Fields, boolean>, reader?: string | null): string {
  const items = new Map<string, string>();
  const visit = (node: Node): void => {
    if (node.kind === 'group') {
      for (const extra of node.selects) visit(extra);
      for (const child of Object.values(node.fields)) visit(child);
      return;
    }
    if (node.select === undefined) return;
    const alias = node.from[0];
    const hidden = reader !== undefined && node.audience !== undefined && node.audience !== reader;
    const select = hidden ? `NULL AS ${alias}` : node.select;
    const seen = items.get(alias);
    if (seen !== undefined && seen !== select) throw new Error(`read-model: ${alias} is selected as both ${seen} and ${select}`);
    items.set(alias, select);
  };
  visit(root);
  return [...items.values()].join(', ');
}

export interface ReadModel<G extends Group<Fields, false>> {
  readonly root: G;
  readonly shape: ObjectSpec<ViewOfGroup<G>, RowOf<G>>;
  /** `SELECT ${columns} ${from} WHERE …` */
  readonly columns: string;
  readonly toJson: (row: RowOf<G>) => ViewOfGroup<G>;
  /** The SELECT list as `audience` (null: no audience) may read it: other audiences' fields are NULL. */
  readonly columnsFor: (audience: string | null) => string;
  /** The view as `audience` may see it: the same object when nothing in it is another audience's, else a copy with those fields null. */
  readonly viewFor: (view: ViewOfGroup<G>, audience?: string) => ViewOfGroup<G>;
}

/** The key paths of the fields `only` gave an audience, with that audience. */
function restrictedPaths(node: Node, path: readonly string[] = []): Array<{ path: readonly string[]; audience: string }> {
  if (node.kind === 'field') return node.audience === undefined ? [] : [{ path, audience: node.audience }];
  return Object.entries(node.fields).flatMap(([key, child]) => restrictedPaths(child, [...path, key]));
}

/** A copy of `value` with the value at `path` null (objects along the way copied, the rest shared). */
function withNullAt(value: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [key, ...rest] = path as [string, ...string[]];
  const inner = value[key];
  if (rest.length === 0) return { ...value, [key]: null };
  if (inner === null || typeof inner !== 'object') return value;
  return { ...value, [key]: withNullAt(inner as Record<string, unknown>, rest) };
}

function valueAt(value: unknown, path: readonly string[]): unknown {
  let at = value;
  for (const key of path) at = at === null || typeof at !== 'object' ? undefined : (at as Record<string, unknown>)[key];
  return at;
}

export function readModel<G extends Group<Fields, false>>(root: G): ReadModel<G> {
  const shape = shapeOf(root);
  const restricted = restrictedPaths(root);
  const viewFor = (view: ViewOfGroup<G>, audience?: string): ViewOfGroup<G> => {
    let out = view as Record<string, unknown>;
    for (const field of restricted) {
      if (field.audience !== audience && valueAt(out, field.path) != null) out = withNullAt(out, field.path);
    }
    return out as ViewOfGroup<G>;
  };
  return { root, shape, columns: selectListOf(root), toJson: compileJsonShape(shape), columnsFor: (audience) => selectListOf(root, audience), viewFor };
}
