import { col, group, readModel, RowOf, ViewOfGroup } from '../../../common/database/read-model';
import { dtoOf } from '../../../common/http/read-model-openapi';

/** Who wrote a message: the ride's passenger or its assigned driver. */
export const SENDER_ROLES = ['passenger', 'driver'] as const;
export type SenderRole = (typeof SENDER_ROLES)[number];

export const RIDE_MESSAGE_VIEW_FROM = `FROM ride_messages m`;
/** Oldest first; messages of one instant by id, so pages never overlap. */
export const RIDE_MESSAGE_VIEW_ORDER = `ORDER BY m.created_at ASC, m.id ASC`;

/** A chat message (CONTRACT §11), declared once: the SELECT list, its JSON and its OpenAPI schema come from here. */
export const RIDE_MESSAGE = readModel(
  group('RideMessageResponseDto', {
    id: col.uuid('m.id'),
    ride_id: col.uuid('m.ride_id'),
    sender_role: col.oneOf(SENDER_ROLES)('m.sender_role', { example: 'driver' }),
    text: col.text('m.text', { example: "I'm at the main entrance, white Corolla.", description: 'Plain text as sent, trimmed; escape it when rendering' }),
    created_at: col.time('m.created_at'),
  }),
);

export const RIDE_MESSAGE_VIEW_COLUMNS = RIDE_MESSAGE.columns;
export type RideMessageViewRow = RowOf<typeof RIDE_MESSAGE.root>;
/** The message as the endpoints and the chat_message event carry it. */
export type RideMessageView = ViewOfGroup<typeof RIDE_MESSAGE.root>;
export const rideMessageToJson = RIDE_MESSAGE.toJson;
export const RideMessageResponseDto = dtoOf(RIDE_MESSAGE.root);
export type RideMessageResponseDto = RideMessageView;
