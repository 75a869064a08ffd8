import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import type { GeoPoint } from '../../../../common/events/domain-events';
import { haversineKm } from '../../../../common/geo';

/** What a nearby page asks for: the point, the radius, the category (null: any), at most `limit` rides. */
export interface NearbyQuery {
  latitude: number;
  longitude: number;
  radiusKm: number;
  /** null: every category. */
  vehicleCategoryId: number | null;
  limit: number;
}

/**
 * 48 bits of the SHA-1 of a ride's JSON (without its closing brace), made once per ride change: a
 * page's tag hashes these and the distances instead of the page's 66 KB on every build.
 */
export function pieceHash(head: string): number {
  return createHash('sha1').update(head, 'utf8').digest().readUIntBE(0, 6);
}

/**
 * A nearby page as sent: its UTF-8 bytes, its entity tag, and the gzip of the bytes, made the first
 * time a client asks for it and kept with the page. The tag is a hash of what the bytes are made of
 * (each ride's pieceHash and distance), so every instance gives the same page the same tag and a page
 * rebuilt unchanged keeps it. Weak (`W/`): the compressed and plain bodies are the same page.
 */
export class NearbyPage {
  private gzipped: Buffer | undefined;

  constructor(
    readonly bytes: Buffer,
    readonly etag: string,
  ) {}

  gzip(): Buffer {
    return (this.gzipped ??= gzipSync(this.bytes));
  }

  /** What the page holds in memory, about: the bytes and, once made, their gzip. */
  get size(): number {
    return this.bytes.length + (this.gzipped?.length ?? this.bytes.length >> 2) + 100;
  }
}

/**
 * Writes the JSON array GET /driver/rides/nearby answers from rides already in page order (nearest
 * first by chord, then id): each ride's wire JSON without its closing brace, then its haversine
 * `distance_km` to 2 decimals; a ride beyond the radius is left out. Both sources of rides (the
 * open-requests index, and the database's rows while the index loads) go through this one writer,
 * so the two cannot drift apart.
 */
export class NearbyPageWriter {
  private readonly heads: string[] = [];
  private readonly hundredths: number[] = [];
  private readonly hashes: number[] = [];

  constructor(
    private readonly point: GeoPoint,
    private readonly radiusKm: number,
  ) {}

  /** Adds the ride unless its pickup lies beyond the radius; `head` is its JSON without the closing brace, `hash` its pieceHash. */
  add(head: string, hash: number, pickup: GeoPoint): boolean {
    const km = haversineKm(this.point, pickup);
    if (km > this.radiusKm) return false;
    this.heads.push(head);
    this.hashes.push(hash);
    this.hundredths.push(Math.floor(km * 100 + 0.5));
    return true;
  }

  get count(): number {
    return this.heads.length;
  }

  finish(): string {
    const { heads, hundredths } = this;
    let body = '[';
    for (let i = 0; i < heads.length; i += 1) {
      body += heads[i]!;
      body += tailOf(hundredths[i]!, i < heads.length - 1);
    }
    return body + ']';
  }

  /** The page's entity tag: the rides' hashes and distances, in order (16 bytes a ride to hash, not 1.3 KB). */
  etag(): string {
    const parts = new Float64Array(this.heads.length * 2);
    for (let i = 0; i < this.heads.length; i += 1) {
      parts[2 * i] = this.hashes[i]!;
      parts[2 * i + 1] = this.hundredths[i]!;
    }
    return `W/"${createHash('sha1').update(parts).digest('base64url')}"`;
  }

  /** The page as sent. */
  page(): NearbyPage {
    return new NearbyPage(Buffer.from(this.finish(), 'utf8'), this.etag());
  }
}

/** `,"distance_km":1.23}` (and with the comma before the next ride) by hundredths of a km, made once each: one string to join per ride, no number to format. */
const TAILS: Array<[string, string] | undefined> = [];
/** Made once up to this distance (about 1 MB at most; nearby's radius stops at 50 km); beyond, made each time. */
const TAILS_UP_TO_KM = 100;

function tailOf(hundredths: number, comma: boolean): string {
  let tails = TAILS[hundredths];
  if (!tails) {
    const tail = JSON.parse(JSON.stringify(`,"distance_km":${hundredths / 100}}`)) as string; // flat: a template literal is a cons
    tails = [tail, JSON.parse(JSON.stringify(`${tail},`)) as string];
    if (hundredths <= 100 * TAILS_UP_TO_KM) TAILS[hundredths] = tails;
  }
  return tails[comma ? 1 : 0];
}
