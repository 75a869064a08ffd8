/*
 * A rating adds the stars to the rated user's sum, count and average, which sit on the rows every
 * ride view and profile already reads: users for a passenger, drivers for a driver. Those tables are
 * the users and drivers modules', and only the owner names its table in SQL; both modules sit above
 * rides in the layers, so rides states what it needs here and their services implement it (bound
 * once in src/bootstrap/marketplace-ports.module.ts). The `rate` command is one statement: each
 * owner hands over its part of it.
 */

/** The passenger's average as drivers rated them (users.rating). */
export abstract class PassengerRatingsPort {
  /**
   * The part that adds a rating: an UPDATE (a CTE of the caller's statement) adding `stars` to user
   * `userId`'s sum and count and rewriting the average from them, RETURNING the new `rating`. Both
   * are SQL expressions of the caller's statement; a NULL user updates nothing.
   */
  abstract addPassengerRatingSql(userId: string, stars: string): string;
}

/** The driver's average as passengers rated them (drivers.rating). */
export abstract class DriverRatingsPort {
  /** As PassengerRatingsPort.addPassengerRatingSql, for the driver's row. */
  abstract addDriverRatingSql(userId: string, stars: string): string;
}
