import type { EntityManager } from 'typeorm';

/*
 * The PIN at pickup (CONTRACT §14): the passenger's setting decides at acceptance whether the ride
 * gets one. The setting lives on the users row (the users module's), which sits above rides in the
 * layers: rides states what it needs here and UsersService answers it (bound once in
 * src/bootstrap/marketplace-ports.module.ts), inside the `accept` command's transaction.
 */
export const RIDE_PIN_SETTINGS = ['off', 'always', 'night'] as const;
export type RidePinSetting = (typeof RIDE_PIN_SETTINGS)[number];

export abstract class RidePinSettingsPort {
  abstract ridePinSettingOf(userId: number, tx: EntityManager): Promise<RidePinSetting>;
  /** The same setting as SQL over the user `userIdExpr` names (an expression of the caller's statement). */
  abstract ridePinSettingSql(userIdExpr: string): string;
}
