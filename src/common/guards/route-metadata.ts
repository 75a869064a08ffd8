import { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';

const byClass = new WeakMap<object, WeakMap<object, Map<string, unknown>>>();

/**
 * Reflector.getAllAndOverride(key, [handler, class]), read once per route: decorator metadata is
 * fixed once the app is built, and the global guards ask for it on every request.
 */
export function routeMetadata<T>(reflector: Reflector, key: string, context: ExecutionContext): T | undefined {
  const handler = context.getHandler();
  const cls = context.getClass();
  let handlers = byClass.get(cls);
  if (!handlers) byClass.set(cls, (handlers = new WeakMap()));
  let values = handlers.get(handler);
  if (!values) handlers.set(handler, (values = new Map()));
  if (values.has(key)) return values.get(key) as T | undefined;
  const value = reflector.getAllAndOverride<T | undefined>(key, [handler, cls]);
  values.set(key, value);
  return value;
}
