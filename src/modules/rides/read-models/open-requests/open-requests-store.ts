import type { RideView } from '../ride-view';
import { pieceHash } from './nearby-page';
import { MAX_HOLES, RideJsonTemplates } from './ride-json-templates';

/** One open request as the index takes it in. */
export interface OpenRequest {
  readonly id: string;
  readonly latitude: number;
  readonly longitude: number;
  readonly categoryId: number;
  readonly expiresAtMs: number;
  readonly passengerId: number | null;
  /** `updated_at` of the ride: an older copy never replaces a newer one. */
  readonly updatedAtMs: number;
  /** The ride's wire JSON. */
  readonly json: string;
  /** The database's hash of the ride's view row, when the entry came from the database (reconciliation compares it). */
  readonly fingerprint: number | null;
  /** Which change put it here (a counter of the index): later changes win over older database reads. */
  readonly seq: number;
}

/** Per slot in `hot`, what a search reads, in one 64-byte line: the pickup as the unit vector rides.pickup_vec holds (so the order is the SQL's), then the filters. */
export const X = 0;
export const Y = 1;
export const Z = 2;
export const EXPIRES = 3;
export const CATEGORY = 4;
const LATITUDE = 5;
const LONGITUDE = 6;
const SEQ = 7;
export const HOT = 8;
/** Per slot in `cold`: what only updates read. */
const UPDATED = 0;
const PASSENGER = 1;
const FINGERPRINT = 2;
const TEMPLATE = 3;
const HASH = 4;
const COLD = 5;

const RAD = Math.PI / 180;

/** The unit vector of a point, as the generated column rides.pickup_vec computes it. */
export function unitVector(latitude: number, longitude: number): { x: number; y: number; z: number } {
  const lat = latitude * RAD;
  const lng = longitude * RAD;
  return { x: Math.cos(lat) * Math.cos(lng), y: Math.cos(lat) * Math.sin(lng), z: Math.sin(lat) };
}

/**
 * The open requests in slots of typed arrays (struct of arrays): about 0.8 KB a request, where one
 * object per request with its boxed numbers, strings and 1.3 KB of JSON took 2 KB (measured:
 * bench/open-requests-memory.js; BENCHMARKS.md). A slot's ride JSON is its own text (one flat string)
 * plus the runs its template shares with the other open rides (RideJsonTemplates). Freed slots are reused.
 */
export class OpenRequestStore {
  hot = new Float64Array(0);
  private cold = new Float64Array(0);
  private cuts = new Uint32Array(0);
  private texts: Array<string | undefined> = [];
  private ids: Array<string | undefined> = [];
  private readonly slots = new Map<string, number>();
  private readonly freeSlots: number[] = [];
  private readonly templates = new RideJsonTemplates();

  get size(): number {
    return this.slots.size;
  }

  get capacity(): number {
    return this.ids.length;
  }

  /** The slot holding the request with this id, or -1. */
  slotOf(id: string): number {
    return this.slots.get(id) ?? -1;
  }

  /** Takes a free slot for the request (its id not yet here). */
  add(request: OpenRequest): number {
    if (this.freeSlots.length === 0) this.grow();
    const slot = this.freeSlots.pop()!;
    this.slots.set(request.id, slot);
    this.ids[slot] = request.id;
    this.write(slot, request);
    return slot;
  }

  /** Replaces what a slot holds with another version of its request. */
  replace(slot: number, request: OpenRequest): void {
    const template = this.cold[slot * COLD + TEMPLATE]!;
    this.write(slot, request);
    this.templates.release(template); // after: a shape only this ride has is not forgotten and found again
  }

  remove(slot: number): void {
    this.slots.delete(this.ids[slot]!);
    this.templates.release(this.cold[slot * COLD + TEMPLATE]!);
    this.ids[slot] = undefined;
    this.texts[slot] = undefined;
    this.freeSlots.push(slot);
  }

  /** The slot of the passenger's open request, or -1: a scan (about 0.1 ms at 100k), which spares a map of passengers. */
  slotOfPassenger(passengerId: number): number {
    for (let slot = 0; slot < this.ids.length; slot += 1) {
      if (this.cold[slot * COLD + PASSENGER] === passengerId && this.ids[slot] !== undefined) return slot;
    }
    return -1;
  }

  /** Whether the slot holds a request. */
  occupies(slot: number): boolean {
    return this.ids[slot] !== undefined;
  }

  id(slot: number): string {
    return this.ids[slot]!;
  }

  latitude(slot: number): number {
    return this.hot[slot * HOT + LATITUDE]!;
  }

  longitude(slot: number): number {
    return this.hot[slot * HOT + LONGITUDE]!;
  }

  expiresAtMs(slot: number): number {
    return this.hot[slot * HOT + EXPIRES]!;
  }

  seq(slot: number): number {
    return this.hot[slot * HOT + SEQ]!;
  }

  updatedAtMs(slot: number): number {
    return this.cold[slot * COLD + UPDATED]!;
  }

  fingerprint(slot: number): number | null {
    const fp = this.cold[slot * COLD + FINGERPRINT]!;
    return Number.isNaN(fp) ? null : fp;
  }

  /** The slot's ride JSON without its closing brace (the page appends distance_km), byte for byte as it came in. */
  head(slot: number): string {
    return this.templates.join(this.cold[slot * COLD + TEMPLATE]!, this.texts[slot]!, this.cuts, slot * MAX_HOLES);
  }

  /** A hash of head(slot), made once when the request was written: nearby's ETag is made of these. */
  hash(slot: number): number {
    return this.cold[slot * COLD + HASH]!;
  }

  /** How many ride shapes the open requests have (a figure for the bench). */
  get shapes(): number {
    return this.templates.size;
  }

  private write(slot: number, r: OpenRequest): void {
    const head = r.json.slice(0, -1);
    const { template, text, cuts } = this.templates.split(head);
    const { x, y, z } = unitVector(r.latitude, r.longitude);
    const h = slot * HOT;
    this.hot[h + X] = x;
    this.hot[h + Y] = y;
    this.hot[h + Z] = z;
    this.hot[h + EXPIRES] = r.expiresAtMs;
    this.hot[h + CATEGORY] = r.categoryId;
    this.hot[h + LATITUDE] = r.latitude;
    this.hot[h + LONGITUDE] = r.longitude;
    this.hot[h + SEQ] = r.seq;
    const c = slot * COLD;
    this.cold[c + UPDATED] = r.updatedAtMs;
    this.cold[c + PASSENGER] = r.passengerId ?? NaN;
    this.cold[c + FINGERPRINT] = r.fingerprint ?? NaN;
    this.cold[c + TEMPLATE] = template;
    this.cold[c + HASH] = pieceHash(head);
    this.cuts.set(cuts, slot * MAX_HOLES);
    this.texts[slot] = text;
  }

  /** Half as many slots again (at least 1,024): copying costs about a millisecond per 100k slots. */
  private grow(): void {
    const from = this.capacity;
    const to = Math.max(1024, Math.ceil(from * 1.5));
    this.hot = grown(this.hot, to * HOT);
    this.cold = grown(this.cold, to * COLD);
    this.cuts = grown(this.cuts, to * MAX_HOLES);
    for (let slot = from; slot < to; slot += 1) {
      this.ids.push(undefined); // push, not length =: a longer length makes the array sparse (a dictionary)
      this.texts.push(undefined);
    }
    for (let slot = to - 1; slot >= from; slot -= 1) this.freeSlots.push(slot);
  }
}

function grown<A extends Float64Array | Uint32Array>(array: A, length: number): A {
  const bigger = new (array.constructor as new (n: number) => A)(length);
  bigger.set(array);
  return bigger;
}

/** An open request on the operators' live map. */
export interface OpenRequestPin {
  id: string;
  latitude: number;
  longitude: number;
  created_at: string;
}

/** An index entry from the ride's wire object: serialised once, here. */
export function requestOf(ride: RideView, fingerprint: number | null, seq: number): OpenRequest {
  const { latitude, longitude } = ride.pickup;
  return {
    id: ride.id.toLowerCase(),
    latitude,
    longitude,
    categoryId: ride.vehicle_category_id,
    expiresAtMs: Date.parse(ride.expires_at),
    passengerId: ride.passenger?.id ?? null,
    updatedAtMs: Date.parse(ride.updated_at),
    json: JSON.stringify(ride),
    fingerprint,
    seq,
  };
}
