/**
 * The average a rated user shows (CONTRACT §11): exactly round(sum / count, 2), null with no
 * ratings. Stated as the CHECK of users and drivers (migration RideRatings1763800014000 keeps its
 * own copy, as migrations are frozen): the average is written in the same UPDATE as the sum and
 * count, and the database refuses any row where it drifted.
 */
export const RATING_AVERAGE_RULE = 'rating IS NOT DISTINCT FROM (CASE WHEN ratings_count = 0 THEN NULL ELSE round(rating_sum::numeric / ratings_count, 2) END)';

/** The SET list that adds `starsParam` (a `$n`) to a rated row: sum, count and the average from them, in one statement. */
export function addRatingSql(starsParam: string): string {
  return `rating_sum = rating_sum + ${starsParam}, ratings_count = ratings_count + 1,
    rating = round((rating_sum + ${starsParam})::numeric / (ratings_count + 1), 2)`;
}
