import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// bench/ is plain CommonJS run by node; its report generator is what writes BENCHMARKS.md.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { markdown, REFERENCE } = require('../../bench/report');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { capacitySvg } = require('../../bench/lib/capacity-report');

const ROOT = join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');
/** GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens; and explicit ids. */
const anchorsOf = (markdown: string): Set<string> =>
  new Set([
    ...[...markdown.matchAll(/^#{1,6} (.+)$/gm)].map((m) =>
      m[1]!
        .trim()
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
    ...[...markdown.matchAll(/<a id="([^"]+)"/g)].map((m) => m[1]!),
  ]);
const DOCS = [
  'README.md',
  'BENCHMARKS.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('reference documents', () => {
  it('BENCHMARKS.md and its plot are exactly what bench/report.js writes from bench/reference-run.json (never edited by hand)', () => {
    const reference = JSON.parse(readFileSync(REFERENCE, 'utf8'));
    expect(read('BENCHMARKS.md')).toBe(markdown(reference));
    expect(read('docs/capacity-p99.svg')).toBe(capacitySvg(reference.capacity));
  });

  it('read as references, not as a work diary: no hand-added figures, no branch names', () => {
    // The work branches whose names the benchmark notes used to carry.
    const diary =
      /added by hand|by hand from|\bbranch\b|\b(?:matcher|city|capacity|polish|trust|later|offer|chat)-1\d\b|\b(?:matcher|city|capacity|trust|chat)-2\d\b|index-memory|nearby-pipe|\bhotpaths\b/i;
    for (const file of DOCS) {
      const hit = diary.exec(read(file));
      expect([file, hit?.[0]]).toEqual([file, undefined]);
    }
  });

  it('the README stays a front page (at most 160 lines); every local link and anchor in the documents resolves', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(160);
    for (const file of DOCS) {
      const dir = file.includes('/') ? file.slice(0, file.lastIndexOf('/') + 1) : '';
      for (const [, target, anchor] of read(file).matchAll(/\]\((?!https?:|mailto:)([^)#\s]*)(?:#([^)\s]+))?\)/g)) {
        const path = target ? join(dir, target) : file;
        expect([file, target, existsSync(join(ROOT, path))]).toEqual([file, target, true]);
        if (anchor && path.endsWith('.md'))
          expect([file, `${target}#${anchor}`, anchorsOf(read(path)).has(anchor)]).toEqual([file, `${target}#${anchor}`, true]);
      }
    }
  });
});
