/**
 * Compile-time equality of two types (both ways): a response DTO checked against the read model it
 * documents fails the build when a field is added, dropped or retyped on one side only.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export type Assert<T extends true> = T;
