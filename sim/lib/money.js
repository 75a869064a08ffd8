'use strict';
/** Money is compared in integer cents: the wire carries major units with 2 decimals. */
const cents = (major) => Math.round(Number(major) * 100);

/**
 * The wallet checks of the simulation. A passenger's balance must equal what was credited minus the
 * fares of their completed wallet rides, their tips and the cancellation fees their wallet paid; a driver's must
 * equal the sum of `earning` of the wallet and card rides, the tips and the cancellation fees received in their earnings items, and each completed ride the simulation saw must be in those items at
 * the fare the passenger accepted. Returns the violations as sentences.
 */
function checkPassengerWallet({ userId, balance, creditedCents, walletFaresCents, tipsCents = [], feesCents = [] }) {
  const expected = creditedCents - [...walletFaresCents, ...tipsCents, ...feesCents].reduce((s, f) => s + f, 0);
  const actual = cents(balance);
  return actual === expected
    ? []
    : [
        `passenger ${userId}: wallet balance ${fmt(actual)}, expected ${fmt(expected)} (credited ${fmt(creditedCents)} − ${walletFaresCents.length} wallet fares − ${tipsCents.length} tips − ${feesCents.length} cancellation fees)`,
      ];
}

function checkDriverWallet({ userId, balance, earningsItems, completedRides, feesCents = [] }) {
  const problems = [];
  // Cancellation fees reach the wallet too (rides that never completed, so in no earnings item).
  const fees = feesCents.reduce((s, f) => s + f, 0);
  // Wallet and card fares reach the wallet (less the commission); tips whatever the ride's payment method.
  const walletEarnings = fees + earningsItems.reduce((s, i) => s + (i.payment_method !== 'cash' ? cents(i.earning) : 0) + (i.tip ? cents(i.tip) : 0), 0);
  const actual = cents(balance);
  if (actual !== walletEarnings)
    problems.push(`driver ${userId}: wallet balance ${fmt(actual)}, but wallet earnings, tips and fees add up to ${fmt(walletEarnings)}`);
  const byRide = new Map(earningsItems.map((i) => [i.ride_id, i]));
  for (const ride of completedRides) {
    const item = byRide.get(ride.rideId);
    if (!item) problems.push(`driver ${userId}: completed ride ${ride.rideId} missing from earnings`);
    else if (cents(item.fare) !== ride.fareCents)
      problems.push(`driver ${userId}: ride ${ride.rideId} fare ${fmt(cents(item.fare))} in earnings, accepted bid was ${fmt(ride.fareCents)}`);
    else if (item.payment_method !== ride.paymentMethod)
      problems.push(`driver ${userId}: ride ${ride.rideId} paid by ${item.payment_method}, booked as ${ride.paymentMethod}`);
    else if (ride.tipCents != null && cents(item.tip) !== ride.tipCents)
      problems.push(`driver ${userId}: ride ${ride.rideId} tip ${fmt(cents(item.tip))} in earnings, passenger tipped ${fmt(ride.tipCents)}`);
  }
  return problems;
}

function fmt(c) {
  return (c / 100).toFixed(2);
}

module.exports = { cents, checkPassengerWallet, checkDriverWallet };
