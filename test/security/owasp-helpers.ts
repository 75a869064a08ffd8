import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { ModulesContainer } from '@nestjs/core';
import type { LightMyRequestResponse } from 'fastify';
import type { ErrorBody } from '../../src/common/http/error-body';
import { ROLES } from '../../src/common/auth/auth.decorators';
import { startAuthApp } from '../auth/auth-helpers';
import type { TestApp } from '../support/test-app';

/** What the OWASP API Top 10 files share: the app's limits, the error shape, table counts, the role-guarded routes. */

/** Small limits, so that each resource limit is reached with a small request. */
export function startOwaspApp(): Promise<TestApp> {
  return startAuthApp({
    BODY_LIMIT_BYTES: '65536',
    PROFILE_PICTURE_MAX_BYTES: '4096',
    WS_MAX_PAYLOAD_BYTES: '1024',
    WS_MAX_MESSAGES_PER_SECOND: '20',
  });
}

export const API = '/api/v1';
export const json = { 'content-type': 'application/json' };

export function expectError(res: LightMyRequestResponse, status: number): ErrorBody {
  expect([res.statusCode, res.body]).toEqual([status, expect.any(String)]);
  const body = res.json() as ErrorBody;
  expect(body).toMatchObject({ statusCode: status, error: expect.any(String), message: expect.any(String) });
  return body;
}

export async function tableCounts(t: TestApp): Promise<Record<string, number>> {
  const [row] = await t.db.query(
    `SELECT (SELECT count(*) FROM users)::int AS users, (SELECT count(*) FROM rides)::int AS rides,
            (SELECT count(*) FROM bids)::int AS bids, (SELECT count(*) FROM wallets)::int AS wallets,
            (SELECT count(*) FROM wallet_ledger_entries)::int AS ledger`,
  );
  return row;
}

export interface RoleRoute {
  method: string;
  url: string;
  openApiPath: string;
  roles: string[];
}

/** Every route with role metadata, read from the controllers Nest registered (not a hand-written list). */
export function roleRoutes(t: TestApp): RoleRoute[] {
  const routes: RoleRoute[] = [];
  const join = (...parts: string[]): string =>
    '/' +
    parts
      .map((p) => p.replace(/^\/+|\/+$/g, ''))
      .filter(Boolean)
      .join('/');
  for (const module of t.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => unknown) | undefined;
      if (!controller) continue;
      const classRoles: string[] | undefined = Reflect.getMetadata(ROLES, controller);
      const base: string = Reflect.getMetadata(PATH_METADATA, controller) ?? '';
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof handler !== 'function') continue;
        const path: string | undefined = Reflect.getMetadata(PATH_METADATA, handler);
        if (path === undefined) continue;
        const roles: string[] | undefined = Reflect.getMetadata(ROLES, handler) ?? classRoles;
        if (!roles?.length) continue;
        const method = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as number];
        const full = join(API, base, path);
        routes.push({
          method,
          url: full.replace(/:[a-z_]+/g, '00000000-0000-4000-8000-000000000000'),
          openApiPath: full.replace(/:([a-z_]+)/g, '{$1}'),
          roles,
        });
      }
    }
  }
  return routes;
}
