import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import type { ModulesContainer } from '@nestjs/core';
import { IS_PUBLIC } from './auth.decorators';
import { OPEN_TO_OPERATORS, OPERATOR_ACTION } from './operator-action.decorator';
import { OPERATOR_PERMISSIONS, type OperatorAction } from './operator-permissions';

/** Routes whose path (after the global prefix) starts here are for operators only. */
const ADMIN_SEGMENT = 'admin';

/** A route handler as its decorators declare it. */
export interface DeclaredRoute {
  /** `AdminUsersController.block` */
  name: string;
  method: string;
  /** Without the global prefix, e.g. `admin/users/:id/block`. */
  path: string;
  admin: boolean;
  action?: OperatorAction;
  isPublic: boolean;
  openToOperators: boolean;
}

type Handler = (...args: never[]) => unknown;
type ControllerClass = abstract new (...args: never[]) => unknown;

const adminByClass = new WeakMap<object, WeakMap<object, boolean>>();

function pathsOf(target: object): string[] {
  const value = Reflect.getMetadata(PATH_METADATA, target) as string | string[] | undefined;
  const list = Array.isArray(value) ? value : [value ?? ''];
  return list.map((p) => p.replace(/^\/+|\/+$/g, ''));
}

function joinPaths(controller: object, handler: object): string[] {
  return pathsOf(controller).flatMap((base) => pathsOf(handler).map((own) => [base, own].filter(Boolean).join('/')));
}

function isAdminPath(path: string): boolean {
  return path === ADMIN_SEGMENT || path.startsWith(`${ADMIN_SEGMENT}/`);
}

/** Whether the handler is served under /api/v1/admin/ (answered once per route: decorators are fixed). */
export function isAdminRoute(controller: object, handler: object): boolean {
  let handlers = adminByClass.get(controller);
  if (!handlers) adminByClass.set(controller, (handlers = new WeakMap()));
  let admin = handlers.get(handler);
  if (admin === undefined) handlers.set(handler, (admin = joinPaths(controller, handler).some(isAdminPath)));
  return admin;
}

/** Every HTTP route of the application's controllers. */
export function declaredRoutes(modules: ModulesContainer): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  for (const module of modules.values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as ControllerClass | null;
      if (!controller) continue;
      const prototype = controller.prototype as Record<string, unknown>;
      for (const key of Object.getOwnPropertyNames(prototype)) {
        const handler = prototype[key] as Handler;
        if (key === 'constructor' || typeof handler !== 'function') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method === undefined) continue;
        const read = <T>(metadataKey: string): T | undefined =>
          (Reflect.getMetadata(metadataKey, handler) ?? Reflect.getMetadata(metadataKey, controller)) as T | undefined;
        for (const path of joinPaths(controller, handler)) {
          routes.push({
            name: `${controller.name}.${key}`,
            method: RequestMethod[method],
            path,
            admin: isAdminPath(path),
            action: read<OperatorAction>(OPERATOR_ACTION),
            isPublic: read<boolean>(IS_PUBLIC) === true,
            openToOperators: read<boolean>(OPEN_TO_OPERATORS) === true,
          });
        }
      }
    }
  }
  return routes;
}

/**
 * Deny by default, checked before the app serves anything: every admin route names an action of
 * the table and needs a token; no route elsewhere names one (it would be checked by nobody).
 */
export function operatorRouteProblems(routes: DeclaredRoute[]): string[] {
  const problems: string[] = [];
  for (const route of routes) {
    const where = `${route.name} (${route.method} /${route.path})`;
    if (route.admin && route.action === undefined) problems.push(`${where} is under /admin/ without @OperatorAction`);
    if (route.action !== undefined && !Object.hasOwn(OPERATOR_PERMISSIONS, route.action)) {
      problems.push(`${where} names "${route.action}", which is not in OPERATOR_PERMISSIONS`);
    }
    if (route.admin && route.isPublic) problems.push(`${where} is under /admin/ and @Public()`);
    if (!route.admin && route.action !== undefined) problems.push(`${where} has @OperatorAction but is not under /admin/`);
  }
  return problems;
}
