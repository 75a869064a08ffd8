import { Controller, Get, Module } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { declaredRoutes, DeclaredRoute } from '../../src/common/auth/admin-routes';
import { mayPerform, OPERATOR_ACTIONS, OPERATOR_ROLES, type OperatorAction, type OperatorRole } from '../../src/common/auth/operator-permissions';
import { createOperator, createUser, TestOperator, TestUser } from '../support/factories';
import { startTestApp, TestApp } from '../support/test-app';

/** CONTRACT §13 "Who may do what", written out again here so that a wrong table in the code fails. */
const CONTRACT: Record<OperatorRole, OperatorAction[]> = {
  support: ['read', 'users.block', 'rides.cancel', 'sos.resolve'],
  ops: ['read', 'users.block', 'rides.cancel', 'sos.resolve', 'drivers.manage', 'promo_codes.write'],
  finance: ['read', 'refunds.create', 'wallets.adjust'],
  admin: [...OPERATOR_ACTIONS],
};

const FORBIDDEN = (message: string) => ({ statusCode: 403, error: 'Forbidden', message });

/** A URL for the route: every path parameter names a row that does not exist, so an allowed call changes nothing. */
function urlOf(route: DeclaredRoute): string {
  return `/api/v1/${route.path.replace(/:[A-Za-z_]+/g, '987654321')}`;
}

function call(t: TestApp, route: DeclaredRoute, token?: string) {
  const method = route.method as 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  return t.request({ method, url: urlOf(route), token, ...(method === 'GET' ? {} : { payload: { reason: 'walking the permission table' } }) });
}

describe('operator permissions: one table, enforced on every admin route', () => {
  let t: TestApp;
  let adminRoutes: DeclaredRoute[];
  let operators: Record<OperatorRole, TestOperator>;
  let passenger: TestUser;
  let driver: TestUser;

  beforeAll(async () => {
    t = await startTestApp();
    adminRoutes = declaredRoutes(t.get(ModulesContainer)).filter((r) => r.admin);
    const made = await Promise.all(OPERATOR_ROLES.map((role) => createOperator(t, role)));
    operators = Object.fromEntries(made.map((o) => [o.operatorRole, o])) as Record<OperatorRole, TestOperator>;
    [passenger, driver] = await Promise.all([createUser(t), createUser(t, { role: 'driver' })]);
  });
  afterAll(() => t.close());

  it('the table in the code is CONTRACT §13 role by role, action by action', () => {
    for (const role of OPERATOR_ROLES) {
      for (const action of OPERATOR_ACTIONS) {
        expect([role, action, mayPerform(role, action)]).toEqual([role, action, CONTRACT[role].includes(action)]);
      }
    }
    expect(mayPerform(undefined, 'read')).toBe(false);
  });

  it('the walk covers the admin routes built so far, each naming an action', () => {
    const names = adminRoutes.map((r) => `${r.method} /${r.path} ${r.action}`);
    expect(names).toEqual(
      expect.arrayContaining([
        'GET /admin/audit read',
        'GET /admin/operators read',
        'POST /admin/operators operators.manage',
        'DELETE /admin/operators/:id operators.manage',
        'GET /admin/users read',
        'GET /admin/users/:id read',
        'POST /admin/users/:id/block users.block',
        'POST /admin/users/:id/unblock users.block',
        'GET /admin/drivers read',
        'GET /admin/drivers/:id/documents read',
        'GET /admin/documents/:id/file read',
        'POST /admin/drivers/:id/approve drivers.manage',
        'POST /admin/drivers/:id/reject drivers.manage',
        'POST /admin/drivers/:id/suspend drivers.manage',
        'POST /admin/drivers/:id/reinstate drivers.manage',
        'POST /admin/wallets/:user_id/adjust wallets.adjust',
        'GET /admin/rides read',
        'GET /admin/rides/:ride_id read',
        'POST /admin/rides/:ride_id/cancel rides.cancel',
        'GET /admin/promo-codes read',
        'POST /admin/promo-codes promo_codes.write',
        'PATCH /admin/promo-codes/:code promo_codes.write',
        'GET /admin/sos read',
        'POST /admin/sos/:id/resolve sos.resolve',
        'GET /admin/live read',
      ]),
    );
    for (const route of adminRoutes) expect([route.name, route.action]).toEqual([route.name, expect.any(String)]);
  });

  it('every role × every admin route: allowed → not 403; not allowed → 403 "Not allowed for your role"', async () => {
    const outcomes: string[] = [];
    const expected: string[] = [];
    for (const route of adminRoutes) {
      for (const role of OPERATOR_ROLES) {
        const res = await call(t, route, operators[role].accessToken);
        const allowed = CONTRACT[role].includes(route.action!);
        const label = `${role} ${route.method} /${route.path}`;
        expected.push(`${label}: ${allowed ? 'allowed' : 'Not allowed for your role'}`);
        if (res.statusCode === 403) outcomes.push(`${label}: ${res.json().message}`);
        else outcomes.push(`${label}: ${res.statusCode < 500 ? 'allowed' : `failed ${res.statusCode} ${res.body}`}`);
        if (res.statusCode === 403) expect(res.json()).toEqual(FORBIDDEN('Not allowed for your role'));
      }
    }
    expect(outcomes).toEqual(expected);
  });

  it('every admin route: passengers and drivers get 403 "Operators only"; no token is 401', async () => {
    for (const route of adminRoutes) {
      for (const user of [passenger, driver]) {
        const res = await call(t, route, user.accessToken);
        expect([route.name, user.role, res.statusCode, res.json()]).toEqual([route.name, user.role, 403, FORBIDDEN('Operators only')]);
      }
      expect([route.name, (await call(t, route)).statusCode]).toEqual([route.name, 401]);
    }
  });

  it('operator tokens work only under /api/v1/admin/ (and logout): elsewhere 403', async () => {
    const admin = operators.admin;
    const elsewhere: Array<['GET' | 'POST' | 'PUT', string, object?]> = [
      ['GET', '/api/v1/auth/me'],
      ['PUT', '/api/v1/auth/profile', { first_name: 'Grace' }],
      ['GET', '/api/v1/wallet'],
      ['GET', '/api/v1/passenger/rides'],
      ['GET', '/api/v1/driver/profile'],
      ['POST', '/api/v1/auth/register', { role: 'passenger' }],
      ['POST', '/api/v1/rides/estimate', {}],
    ];
    for (const [method, url, payload] of elsewhere) {
      const res = await t.request({ method, url, payload, token: admin.accessToken });
      expect([url, res.statusCode, res.json()]).toEqual([url, 403, FORBIDDEN('Operator accounts may only use the /api/v1/admin/ endpoints')]);
    }
    // Public routes stay public, and an operator ends their own session like anyone else.
    expect((await t.request({ method: 'GET', url: '/api/v1/rides/categories', token: admin.accessToken })).statusCode).toBe(200);
    const own = await createOperator(t, 'support');
    expect((await t.request({ method: 'POST', url: '/api/v1/auth/logout', token: own.accessToken })).statusCode).toBe(200);
    expect((await t.request({ method: 'GET', url: '/api/v1/admin/audit', token: own.accessToken })).statusCode).toBe(401);
  });
});

@Controller('admin/probe')
class UnguardedAdminController {
  @Get()
  list(): string[] {
    return [];
  }
}

@Module({ controllers: [UnguardedAdminController] })
class UnguardedAdminModule {}

describe('deny by default', () => {
  it('the app refuses to start with an admin route that names no action', async () => {
    await expect(startTestApp({ modules: [UnguardedAdminModule] })).rejects.toThrow(
      /UnguardedAdminController\.list \(GET \/admin\/probe\) is under \/admin\/ without @OperatorAction/,
    );
  });
});
