'use strict';
// City-scale data written straight through SQL (INSERT ... SELECT FROM generate_series): far faster
// than the API, and what the service finds on start-up in a big city. Phone numbers carry a prefix
// per kind so that each batch can be found again without returning a million ids.
const CENTER = { latitude: 52.52, longitude: 13.4 };
const HALF_KM = 33.5;
const KM_PER_DEG = 111.195;
const HALF_LAT = HALF_KM / KM_PER_DEG;
const HALF_LNG = HALF_KM / (KM_PER_DEG * Math.cos((CENTER.latitude * Math.PI) / 180));

function randomPoint() {
  return {
    latitude: CENTER.latitude + (Math.random() * 2 - 1) * HALF_LAT,
    longitude: CENTER.longitude + (Math.random() * 2 - 1) * HALF_LNG,
  };
}

async function firstCategoryId(db) {
  return (await db.query('SELECT min(id) AS id FROM vehicle_categories')).rows[0].id;
}

/**
 * Requested rides numbered [from, to) over the metro area, one seeded passenger each
 * (rides_passenger_live_uq: one live ride per passenger), spread over every category. Options:
 * `halfKm` narrows the square around the centre, `categoryId` puts every ride in one category.
 */
async function seedRequestedRides(db, from, to, { halfKm = HALF_KM, categoryId = null } = {}) {
  const scale = halfKm / HALF_KM;
  await db.query(
    `INSERT INTO users (phone, first_name, last_name, role, is_registered, registered_at)
     SELECT '+4915' || lpad(i::text, 9, '0'), 'P' || i, 'CityBench', 'passenger', true, now() FROM generate_series($1::int, $2::int - 1) i`,
    [from, to],
  );
  await db.query(
    `INSERT INTO rides (id, ride_code, status, ride_type, passenger_id, vehicle_category_id,
                        pickup_address, pickup_latitude, pickup_longitude,
                        dropoff_address, dropoff_latitude, dropoff_longitude,
                        passenger_count, payment_method, estimate, estimated_fare_minor, currency, expires_at)
     SELECT gen_random_uuid(), lpad(upper(to_hex(u.id)), 6, '0'), 'requested', 'one_way', u.id,
            coalesce($7::int, (SELECT array_agg(id ORDER BY id) FROM vehicle_categories)[1 + (u.id % (SELECT count(*) FROM vehicle_categories))]),
            'Pickup street ' || u.id, lat, lng, 'Dropoff street ' || u.id, lat + 0.01, lng + 0.01,
            1, 'cash', '{"distance_km": 1.57, "duration_minutes": 4}'::jsonb, 1200, 'EUR', now() + interval '3 hours'
       FROM (SELECT id, $1 + (random() * 2 - 1) * $3 AS lat, $2 + (random() * 2 - 1) * $4 AS lng
               FROM users WHERE phone >= '+4915' || lpad($5::text, 9, '0') AND phone < '+4915' || lpad($6::text, 9, '0')
                 AND phone LIKE '+4915%') u`,
    [CENTER.latitude, CENTER.longitude, HALF_LAT * scale, HALF_LNG * scale, from, to, categoryId],
  );
  await db.query('ANALYZE users');
  await db.query('ANALYZE rides');
}

/** Registered passengers without rides (prefix +4917); their ids in order. */
async function seedPassengers(db, count) {
  const { rows } = await db.query(
    `INSERT INTO users (phone, first_name, last_name, role, is_registered, registered_at)
     SELECT '+4917' || lpad(i::text, 9, '0'), 'R' || i, 'RaceBench', 'passenger', true, now() FROM generate_series(1, $1::int) i
     RETURNING id`,
    [count],
  );
  return rows.map((r) => r.id).sort((a, b) => a - b);
}

/** Approved, online drivers of the given category (prefix +4916); their user ids in order. */
async function seedDrivers(db, count, categoryId) {
  const { rows } = await db.query(
    `INSERT INTO users (phone, first_name, last_name, role, is_registered, registered_at)
     SELECT '+4916' || lpad(i::text, 9, '0'), 'D' || i, 'DriverBench', 'driver', true, now() FROM generate_series(1, $1::int) i
     RETURNING id`,
    [count],
  );
  const ids = rows.map((r) => r.id).sort((a, b) => a - b);
  await db.query(
    `INSERT INTO drivers (user_id, status, is_online, vehicle_category_id, vehicle_make, vehicle_model, vehicle_plate,
                          vehicle_color, vehicle_year, license_number)
     SELECT id, 'approved', true, $2, 'Toyota', 'Prius', 'B-' || id, 'Blue', 2022, 'L-' || id FROM unnest($1::int[]) id`,
    [ids, categoryId],
  );
  await db.query('ANALYZE users');
  await db.query('ANALYZE drivers');
  return ids;
}

module.exports = { CENTER, HALF_LAT, HALF_LNG, randomPoint, firstCategoryId, seedRequestedRides, seedPassengers, seedDrivers };
