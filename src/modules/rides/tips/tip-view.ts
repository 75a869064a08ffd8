/** POST /rides/{id}/tip answers with this (CONTRACT §11); the ride.tipped event carries it too. */
export interface TipView {
  ride_id: string;
  /** Major units, 2 decimals. */
  amount: number;
  currency: string;
  created_at: string;
}
