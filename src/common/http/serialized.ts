declare const SHAPE: unique symbol;

/**
 * The JSON text of a T, sent as is (a controller with `@Header('Content-Type', 'application/json…')`
 * returns it, and Fastify writes the string unchanged). Branded with T, and made only by serialize():
 * a handler declared to return `Serialized<RideResponseDto>` still has its body's shape checked by the
 * compiler against the read model, as if it returned the object.
 */
export type Serialized<T> = string & { readonly [SHAPE]: T };

/** The one way to make a Serialized<T>: JSON.stringify of a value the compiler checked as a T. */
export function serialize<T>(value: T): Serialized<T> {
  return JSON.stringify(value) as Serialized<T>;
}
