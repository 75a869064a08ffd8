import type { EntityManager } from 'typeorm';

/*
 * A rating adds the stars to the rated user's sum, count and average, which sit on the rows every
 * ride view and profile already reads: users for a passenger, drivers for a driver. Those tables are
 * the users and drivers modules', and only the owner writes its table; both modules sit above rides
 * in the layers, so rides states what it needs here and their services implement it (bound once in
 * src/bootstrap/marketplace-ports.module.ts). Each call runs inside the `rate` command's transaction.
 */

/** The passenger's average as drivers rated them (users.rating). */
export abstract class PassengerRatingsPort {
  /** One statement, in the caller's transaction: the stars added to the sum and count, the average rewritten. */
  abstract addPassengerRating(userId: number, stars: number, tx: EntityManager): Promise<void>;
}

/** The driver's average as passengers rated them (drivers.rating). */
export abstract class DriverRatingsPort {
  /** One statement, in the caller's transaction: the stars added to the sum and count, the average rewritten. */
  abstract addDriverRating(userId: number, stars: number, tx: EntityManager): Promise<void>;
}
