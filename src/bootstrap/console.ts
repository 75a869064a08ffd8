import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AppConfig } from '../config/app-config';

export const CONSOLE_PATH = '/console';

/**
 * The operators' web console (CONTRACT §13): plain files under console/ at the package root, served as
 * they are (no build step; docs/decisions.md says why). Registered on Fastify rather than as a Nest
 * controller, so it is no part of the API and never appears in the OpenAPI document.
 *
 * The console talks to the API on its own origin only. Its policy allows scripts and styles from
 * this origin alone (no inline code, no eval), images from here, from blob: (a driver's document
 * fetched with the operator's token) and from the tile server when CONSOLE_TILE_URL names one.
 * Files carry no hash in their names, so every response is revalidated (ETag) rather than cached blind.
 */
export function installConsole(fastify: FastifyInstance, config: Pick<AppConfig, 'consoleTileUrl'>): void {
  const root = consoleRoot();
  const index = readFileSync(join(root, 'index.html'));
  const policy = contentSecurityPolicy(config.consoleTileUrl);
  const settings = JSON.stringify({ tile_url: config.consoleTileUrl ?? null });

  void fastify.register(async (scope) => {
    scope.addHook('onSend', async (_request, reply, payload) => {
      void reply.header('content-security-policy', policy);
      void reply.header('cache-control', 'no-cache');
      return payload;
    });
    for (const path of [CONSOLE_PATH, `${CONSOLE_PATH}/`]) scope.get(path, (_request, reply) => reply.type('text/html; charset=utf-8').send(index));
    scope.get(`${CONSOLE_PATH}/settings.json`, (_request, reply) => reply.type('application/json; charset=utf-8').send(settings));
    await scope.register(fastifyStatic, {
      root,
      prefix: `${CONSOLE_PATH}/`,
      index: false,
      wildcard: true,
      decorateReply: false,
      cacheControl: false,
      dotfiles: 'ignore',
    });
  });
}

export function contentSecurityPolicy(tileUrl: string | undefined): string {
  const tiles = tileUrl ? ` ${new URL(tileUrl.replace(/[{}]/g, '')).origin}` : '';
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' blob: data:${tiles}`,
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** console/ beside src/ when run from the sources, beside dist/ when run from the build. */
function consoleRoot(): string {
  for (let dir = __dirname, i = 0; i < 4; i++, dir = dirname(dir)) {
    const candidate = join(dir, 'console');
    if (existsSync(join(candidate, 'index.html'))) return candidate;
  }
  throw new Error(`The operator console (console/index.html) was not found above ${__dirname}; it ships with the package`);
}
