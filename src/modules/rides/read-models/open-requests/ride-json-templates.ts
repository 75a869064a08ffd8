import type { Node } from '../../../../common/database/read-model';
import { RIDE } from '../ride-view';

/**
 * Keys whose string values come from a short list, so they may belong to what open rides share:
 * the declaration's enums (status, ride_type, payment_method, ...) and the currency (one per
 * deployment). Any other value is the ride's own.
 */
const FEW_VALUED = new Set<string>(['currency']);
(function collect(node: Node, key: string): void {
  if (node.kind === 'group') for (const [k, child] of Object.entries(node.fields)) collect(child, k);
  else if (node.api.enum) FEW_VALUED.add(key);
})(RIDE.root, '');

/** Runs shared by open rides shorter than this stay in each ride's own text: a hole costs the page two joins. */
const MIN_RUN = 32;
/** At most this many holes per ride (the longest runs): the page joins 2 strings per hole and ride. */
export const MAX_HOLES = 6;
/** How many recently used templates a new ride is tried against before its JSON is tokenised. */
const RECENT = 4;

/** What a template splits a ride's JSON into: its own text (the pieces between the shared runs, joined) and where each piece ends. */
export interface SplitJson {
  readonly template: number;
  readonly text: string;
  readonly cuts: readonly number[];
}

interface Template {
  readonly key: string;
  /** The shared runs, in order: the JSON is piece₀ run₀ piece₁ run₁ … pieceₖ. */
  readonly runs: readonly string[];
  refs: number;
}

/**
 * A ride's wire JSON (about 1.3 KB for a requested ride) is mostly keys and nulls every open ride
 * repeats; the index keeps each ride's own text (about 0.3 KB) and, once per shape, the long runs
 * between. A ride is put back together byte for byte: its JSON is cut only where a run was found,
 * so the pieces and runs joined are the JSON, whichever template matched.
 */
export class RideJsonTemplates {
  private readonly templates: Array<Template | undefined> = [];
  private readonly byKey = new Map<string, number>();
  private readonly free: number[] = [];
  private recent: number[] = [];

  /** Splits `json` (taking a reference on the template it used; see release). */
  split(json: string): SplitJson {
    for (const t of this.recent) {
      const split = this.cut(json, t);
      if (split) return split;
    }
    const runs = sharedRuns(json);
    const key = runs.join('\u0000'); // never inside JSON text: control characters are escaped
    let t = this.byKey.get(key);
    if (t === undefined) {
      t = this.free.pop() ?? this.templates.length;
      this.templates[t] = { key, runs, refs: 0 };
      this.byKey.set(key, t);
    }
    return this.cut(json, t)!;
  }

  /** Drops a reference taken by split; a template nobody uses is forgotten. */
  release(t: number): void {
    const template = this.templates[t]!;
    template.refs -= 1;
    if (template.refs > 0) return;
    this.byKey.delete(template.key);
    this.templates[t] = undefined;
    this.free.push(t);
    this.recent = this.recent.filter((r) => r !== t);
  }

  /** The ride's JSON from its text and cuts (cuts[cutsAt + i]: where piece i of the text ends). */
  join(t: number, text: string, cuts: Uint32Array, cutsAt: number): string {
    const { runs } = this.templates[t]!;
    let json = '';
    let from = 0;
    for (let i = 0; i < runs.length; i += 1) {
      const to = cuts[cutsAt + i]!;
      json += text.slice(from, to);
      json += runs[i]!;
      from = to;
    }
    return json + text.slice(from);
  }

  get size(): number {
    return this.byKey.size;
  }

  private cut(json: string, t: number): SplitJson | undefined {
    const template = this.templates[t]!;
    const pieces: string[] = [];
    const cuts: number[] = [];
    let at = 0;
    let length = 0;
    for (const run of template.runs) {
      const found = json.indexOf(run, at);
      if (found < 0) return undefined;
      pieces.push(json.slice(at, found));
      length += found - at;
      cuts.push(length);
      at = found + run.length;
    }
    pieces.push(json.slice(at));
    template.refs += 1;
    if (this.recent[0] !== t) this.recent = [t, ...this.recent.filter((r) => r !== t)].slice(0, RECENT);
    return { template: t, text: flatCopy(pieces), cuts };
  }
}

/**
 * One flat string of the pieces: a slice of the JSON would keep the whole JSON alive, a
 * concatenation would keep its parts; Array#join of two or more strings writes a fresh one.
 */
function flatCopy(pieces: string[]): string {
  if (pieces.filter((p) => p.length > 0).length >= 2) return pieces.join('');
  return JSON.parse(JSON.stringify(pieces.join(''))) as string;
}

/**
 * The runs of `json` every ride of its shape has: keys, punctuation, literals (null, true, false)
 * and the values of few-valued keys; at most MAX_HOLES of them, the longest, each MIN_RUN long or more.
 */
function sharedRuns(json: string): string[] {
  const spans: Array<[number, number]> = [];
  const shared = (from: number, to: number): void => {
    const last = spans[spans.length - 1];
    if (last && last[1] === from) last[1] = to;
    else spans.push([from, to]);
  };
  let key = '';
  for (let i = 0; i < json.length;) {
    const c = json.charCodeAt(i);
    if (c === 0x22) {
      const end = stringEnd(json, i);
      if (json.charCodeAt(end) === 0x3a) {
        key = json.slice(i + 1, end - 1);
        shared(i, end + 1);
      } else if (FEW_VALUED.has(key)) shared(i, end);
      else {
        shared(i, i + 1);
        shared(end - 1, end);
      }
      i = end + (json.charCodeAt(end) === 0x3a ? 1 : 0);
    } else if (c === 0x2d || (c >= 0x30 && c <= 0x39)) {
      let end = i + 1;
      while (end < json.length && /[0-9.eE+-]/.test(json[end]!)) end += 1;
      i = end;
    } else {
      const literal = c === 0x6e || c === 0x74 ? 4 : c === 0x66 ? 5 : 1; // null, true, false, or one punctuation mark
      shared(i, i + literal);
      i += literal;
    }
  }
  return spans
    .filter(([from, to]) => to - from >= MIN_RUN)
    .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))
    .slice(0, MAX_HOLES)
    .sort((a, b) => a[0] - b[0])
    .map(([from, to]) => JSON.parse(JSON.stringify(json.slice(from, to))) as string); // copies: a slice would keep this ride's JSON
}

/** The index just past the closing quote of the JSON string starting at `start`. */
function stringEnd(json: string, start: number): number {
  for (let i = json.indexOf('"', start + 1); i >= 0; i = json.indexOf('"', i + 1)) {
    let backslashes = 0;
    while (json.charCodeAt(i - 1 - backslashes) === 0x5c) backslashes += 1;
    if (backslashes % 2 === 0) return i + 1;
  }
  return json.length;
}
