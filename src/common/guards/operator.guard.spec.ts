import { Controller, ExecutionContext, Get, RequestMethod } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { operatorRouteProblems, DeclaredRoute, isAdminRoute } from '../auth/admin-routes';
import { Public } from '../auth/auth.decorators';
import type { AuthenticatedUser } from '../auth/authenticated-user';
import { OpenToOperators, OperatorAction } from '../auth/operator-action.decorator';
import { OperatorGuard } from './operator.guard';

@Controller('admin/things')
class AdminThings {
  @Get()
  @OperatorAction('users.block')
  block(): void {}

  @Get('bare')
  bare(): void {}
}

@Controller('things')
class Things {
  @Get()
  list(): void {}

  @Get('out')
  @OpenToOperators()
  logout(): void {}

  @Get('categories')
  @Public()
  categories(): void {}
}

function context(cls: object, handler: object, user?: AuthenticatedUser): ExecutionContext {
  return {
    getType: () => 'http',
    getClass: () => cls,
    getHandler: () => handler,
    switchToHttp: () => ({ getRequest: () => ({ user }) }),
  } as unknown as ExecutionContext;
}

const guard = new OperatorGuard(new Reflector());
const support: AuthenticatedUser = { id: 1, role: 'operator', isRegistered: true, operatorRole: 'support' };
const finance: AuthenticatedUser = { id: 2, role: 'operator', isRegistered: true, operatorRole: 'finance' };
const passenger: AuthenticatedUser = { id: 3, role: 'passenger', isRegistered: true };

const outcome = (cls: object, handler: object, user?: AuthenticatedUser): string => {
  try {
    return String(guard.canActivate(context(cls, handler, user)));
  } catch (err) {
    return (err as Error).message;
  }
};

describe('OperatorGuard', () => {
  it('under /admin/: operators whose role the table allows; others "Operators only" or "Not allowed for your role"', () => {
    expect(outcome(AdminThings, AdminThings.prototype.block, support)).toBe('true');
    expect(outcome(AdminThings, AdminThings.prototype.block, finance)).toBe('Not allowed for your role');
    expect(outcome(AdminThings, AdminThings.prototype.block, passenger)).toBe('Operators only');
    expect(outcome(AdminThings, AdminThings.prototype.block, undefined)).toBe('Operators only');
  });

  it('an admin route without an action is refused to every operator (deny by default)', () => {
    expect(outcome(AdminThings, AdminThings.prototype.bare, { ...support, operatorRole: 'admin' })).toBe('Not allowed for your role');
  });

  it('elsewhere: operators refused except where a route is open to them; everyone else passes', () => {
    expect(outcome(Things, Things.prototype.list, support)).toBe('Operator accounts may only use the /api/v1/admin/ endpoints');
    expect(outcome(Things, Things.prototype.logout, support)).toBe('true');
    expect(outcome(Things, Things.prototype.list, passenger)).toBe('true');
    expect(outcome(Things, Things.prototype.categories, undefined)).toBe('true');
  });

  it('knows admin routes by their path', () => {
    expect(isAdminRoute(AdminThings, AdminThings.prototype.block)).toBe(true);
    expect(isAdminRoute(Things, Things.prototype.list)).toBe(false);
  });
});

describe('operatorRouteProblems', () => {
  const route = (over: Partial<DeclaredRoute>): DeclaredRoute => ({
    name: 'X.y',
    method: RequestMethod[RequestMethod.GET],
    path: 'admin/x',
    admin: true,
    isPublic: false,
    openToOperators: false,
    ...over,
  });

  it('names every admin route without an action, public admin routes, unknown actions and actions outside /admin/', () => {
    expect(operatorRouteProblems([route({ action: 'read' }), route({ admin: false, path: 'x' })])).toEqual([]);
    expect(operatorRouteProblems([route({})])).toEqual(['X.y (GET /admin/x) is under /admin/ without @OperatorAction']);
    expect(operatorRouteProblems([route({ action: 'read', isPublic: true })])).toEqual(['X.y (GET /admin/x) is under /admin/ and @Public()']);
    expect(operatorRouteProblems([route({ action: 'users.delete' as never })])).toEqual([
      'X.y (GET /admin/x) names "users.delete", which is not in OPERATOR_PERMISSIONS',
    ]);
    expect(operatorRouteProblems([route({ admin: false, path: 'x', action: 'read' })])).toEqual(['X.y (GET /x) has @OperatorAction but is not under /admin/']);
  });
});
