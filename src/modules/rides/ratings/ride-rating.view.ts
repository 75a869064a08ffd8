/** Which side gave a rating: the passenger (rating the driver) or the driver (rating the passenger). */
export const RATED_BY = ['passenger', 'driver'] as const;
export type RatedBy = (typeof RATED_BY)[number];

/** One side's rating of a ride as POST /rides/{id}/rating answers it and ride.rated carries it (CONTRACT §11). */
export interface RideRatingView {
  ride_id: string;
  rated_by: RatedBy;
  stars: number;
  comment: string | null;
  created_at: string;
}
