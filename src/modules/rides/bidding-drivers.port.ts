import type { EntityManager } from 'typeorm';

/** The part of a driver record bidding and acceptance decide on. */
export interface BiddingDriver {
  status: string;
  is_online: boolean;
  vehicle_category_id: number | null;
}

/**
 * What bidding asks of the drivers module. A port because the drivers module depends on this one
 * (nearby rides, the heartbeat's ride); bound to DriversService by the composition root
 * (src/bootstrap/marketplace-ports.module.ts).
 */
export abstract class BiddingDriversPort {
  /**
   * The driver record of an approved driver; throws the drivers module's DRIVER_NOT_FOUND when the
   * user has none and DRIVER_NOT_APPROVED unless approved (approval is that module's rule).
   */
  abstract getApprovedDriver(userId: number): Promise<BiddingDriver>;
  /** The driver record read inside the caller's transaction (no lock). */
  abstract findDriver(userId: number, manager: EntityManager): Promise<BiddingDriver | undefined>;
  /**
   * getApprovedDriver's rule as an SQL condition on the user `userIdExpr` names (an expression of
   * the caller's statement): accepting a bid judges it in its one statement.
   */
  abstract approvedDriverSql(userIdExpr: string): string;
}
