/**
 * Who may see which fields of a ride (CONTRACT §14: the start PIN is its passenger's alone), for
 * modules that hand rides on (realtime's delivery, operators' views). The fields' audiences are
 * declared once, in the ride's read model (read-models/ride-view.ts).
 */
export { rideViewFor } from './read-models/ride-view';
