import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { getMetadataArgsStorage } from 'typeorm';

/**
 * One writer per table: each table belongs to the module whose `entities/` folder declares its entity
 * (src/modules/<m>/**\/entities/*.entity.ts; src/common/**\/entities/ for common's own), and only that
 * module's SQL names it. Another module goes through the owner's service or a port the owner
 * implements. TypeORM access by entity class is the import rules' part (another module's entities
 * cannot be imported: .dependency-cruiser.cjs); this reads the SQL: raw statements (FROM, JOIN,
 * UPDATE, INTO, TABLE, TRUNCATE) and query-builder calls naming a table as a string. A table's name
 * is written out in the statement, never interpolated, so that this can see it. Migrations and seeds
 * (src/database/) set the schema and its data up and are not scanned.
 */

const SRC = join(__dirname, '..');
const rel = (file: string): string => relative(join(SRC, '..'), file).split(sep).join('/');

/**
 * Reads of another module's table that a read model really needs. Read-only: only FROM and JOIN may
 * name the table here, and every entry must still be needed.
 */
const READ_ONLY_JOINS: ReadonlyArray<{ file: string; table: string; reason: string }> = [
  {
    file: 'src/modules/rides/read-models/ride-view.ts',
    table: 'users',
    reason: 'The Ride read model embeds its passenger and driver as public profiles; every ride endpoint and event reads it in one query.',
  },
  {
    file: 'src/modules/rides/read-models/ride-view.ts',
    table: 'drivers',
    reason: "The Ride read model shows the assigned driver's vehicle and rating, in the same query.",
  },
  {
    file: 'src/modules/rides/bids/bid-view.ts',
    table: 'users',
    reason: "The Bid read model shows the bidding driver's public profile, in the bid list's one query.",
  },
  {
    file: 'src/modules/rides/bids/bid-view.ts',
    table: 'drivers',
    reason: "The Bid read model shows the bidding driver's vehicle and rating, in the same query.",
  },
];

function tsFilesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFilesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The owner of a source file: `common`, or the module it sits in. */
function ownerOf(file: string): string {
  const path = rel(file);
  if (path.startsWith('src/common/')) return 'common';
  const match = /^src\/modules\/([^/]+)\//.exec(path);
  if (!match) throw new Error(`${path} is in no module`);
  return match[1]!;
}

/** Table → owning module, from where each entity lives; a table declared twice fails. */
async function tableOwners(): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const entityFiles = [...tsFilesUnder(join(SRC, 'modules')), ...tsFilesUnder(join(SRC, 'common'))].filter((f) =>
    /\/entities\/[^/]+\.entity\.ts$/.test(rel(f)),
  );
  for (const file of entityFiles) {
    const exported = Object.values((await import(file)) as Record<string, unknown>);
    const declared = getMetadataArgsStorage().tables.filter((t) => exported.includes(t.target) && t.type === 'regular');
    if (declared.length === 0) throw new Error(`${rel(file)} declares no entity`);
    for (const table of declared) {
      const name = table.name!;
      const earlier = owners.get(name);
      if (earlier !== undefined && earlier !== ownerOf(file)) throw new Error(`${name} is declared by ${earlier} and ${ownerOf(file)}`);
      owners.set(name, ownerOf(file));
    }
  }
  return owners;
}

interface TableReference {
  /** The table's name, or `${…}` when the statement interpolates it. */
  table: string;
  /** FROM, JOIN, UPDATE, INTO, TABLE, TRUNCATE, or the query-builder method. */
  how: string;
  line: number;
}

const SQL_NAMING = /\b(FROM|JOIN|UPDATE|INTO|TABLE|TRUNCATE)\s+(?:ONLY\s+)?("?)([a-z_][a-z0-9_]*|\$\{[^}]*\})\2/g;
const BUILDER_NAMING =
  /\.(from|into|update|delete|innerJoin|leftJoin|innerJoinAndSelect|leftJoinAndSelect|insertInto|getRepository)\(\s*['"`]([a-z_][a-z0-9_]*)['"`]/g;

/** The tables a source file's SQL and query-builder calls name (comments left out). */
function tableReferences(source: string): TableReference[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' ')).replace(/(^|[^:])\/\/.*$/gm, '$1');
  const lineAt = (index: number): number => code.slice(0, index).split('\n').length;
  const references: TableReference[] = [];
  for (const m of code.matchAll(SQL_NAMING)) references.push({ table: m[3]!.startsWith('${') ? '${…}' : m[3]!, how: m[1]!, line: lineAt(m.index) });
  for (const m of code.matchAll(BUILDER_NAMING)) references.push({ table: m[2]!, how: m[1]!, line: lineAt(m.index) });
  return references;
}

/** Every reference a module makes to a table it does not own, that no allow-list entry covers. */
function violations(owners: Map<string, string>, files: string[], read = (f: string) => readFileSync(f, 'utf8')): string[] {
  const found: string[] = [];
  for (const file of files) {
    const owner = ownerOf(file);
    for (const ref of tableReferences(read(file))) {
      const where = `${rel(file)}:${ref.line}`;
      if (ref.table === '${…}') {
        found.push(`${where}: ${ref.how} \${…}: a table name must be written out`);
        continue;
      }
      const tableOwner = owners.get(ref.table);
      if (tableOwner === undefined || tableOwner === owner) continue;
      const allowed = READ_ONLY_JOINS.some((a) => a.file === rel(file) && a.table === ref.table) && (ref.how === 'FROM' || ref.how === 'JOIN');
      if (!allowed) found.push(`${where}: ${owner} names ${tableOwner}'s table ${ref.table} (${ref.how})`);
    }
  }
  return found;
}

describe('table ownership', () => {
  let owners: Map<string, string>;
  beforeAll(async () => {
    owners = await tableOwners();
  });
  const sources = [...tsFilesUnder(join(SRC, 'modules')), ...tsFilesUnder(join(SRC, 'common'))];

  it('gives every table one owner, from where its entity lives', () => {
    // A few anchors, not the whole map: a new table's owner is wherever its entity is declared.
    expect(Object.fromEntries(owners)).toMatchObject({
      rides: 'rides',
      users: 'users',
      drivers: 'drivers',
      wallets: 'wallets',
      vehicle_categories: 'pricing',
      rate_limit_counters: 'common',
    });
  });

  it("finds no module's SQL naming a table another module owns, but for the read-only joins listed", () => {
    expect(violations(owners, sources)).toEqual([]);
  });

  it('keeps only allow-list entries that are still needed', () => {
    const unused = READ_ONLY_JOINS.filter((a) => !tableReferences(readFileSync(join(SRC, '..', a.file), 'utf8')).some((r) => r.table === a.table));
    expect(unused).toEqual([]);
  });

  it('sees a write, a read, a query-builder call and an interpolated name; a listed join only as a read', () => {
    const fake = (path: string, text: string) => ({ file: join(SRC, '..', path), text });
    const files = [
      fake('src/modules/rides/ratings/x.ts', 'q(`UPDATE users SET rating = $2 WHERE id = $1`); q(`INSERT INTO\n  drivers (user_id) VALUES ($1)`);'),
      fake('src/modules/auth/x.ts', 'q(`SELECT id FROM "users" WHERE phone = $1`); // FROM rides, in a comment'),
      fake('src/modules/drivers/x.ts', "m.createQueryBuilder().update('rides').set({}); m.createQueryBuilder().from('promo_codes', 'p');"),
      fake('src/modules/users/x.ts', 'q(`DELETE FROM ${table} WHERE id = $1`); q(`SELECT 1 FROM users`);'),
      fake('src/modules/rides/read-models/ride-view.ts', 'q(`UPDATE users SET first_name = $1`); q(`SELECT 1 FROM rides r JOIN users u ON true`);'),
    ];
    const text = new Map(files.map((f) => [f.file, f.text]));
    expect(violations(owners, [...text.keys()], (f) => text.get(f)!)).toEqual([
      "src/modules/rides/ratings/x.ts:1: rides names users's table users (UPDATE)",
      "src/modules/rides/ratings/x.ts:1: rides names drivers's table drivers (INTO)",
      "src/modules/auth/x.ts:1: auth names users's table users (FROM)",
      "src/modules/drivers/x.ts:1: drivers names rides's table rides (update)",
      "src/modules/drivers/x.ts:1: drivers names pricing's table promo_codes (from)",
      'src/modules/users/x.ts:1: FROM ${…}: a table name must be written out',
      "src/modules/rides/read-models/ride-view.ts:1: rides names users's table users (UPDATE)",
    ]);
  });
});
