import { DomainError } from '../../../common/errors/domain.error';

export type ChatErrorCode = 'CHAT_CLOSED';

export const CHAT_MESSAGES: Record<ChatErrorCode, string> = {
  CHAT_CLOSED: 'Messages can only be sent while the ride is accepted, the driver has arrived, or the ride has started',
};

export class ChatError extends DomainError<ChatErrorCode> {
  constructor(code: ChatErrorCode, message: string = CHAT_MESSAGES[code]) {
    super(code, message);
  }
}
