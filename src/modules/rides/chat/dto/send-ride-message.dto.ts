import { ApiProperty } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { MESSAGE_MAX_CHARACTERS } from '../ride-chat.rules';

/** The length rule applies after trimming, so it is the service's (RideChatService, messageText). */
export class SendRideMessageDto {
  @ApiProperty({
    example: "I'm at the main entrance, white Corolla.",
    minLength: 1,
    maxLength: MESSAGE_MAX_CHARACTERS,
    description: `Plain text, 1 to ${MESSAGE_MAX_CHARACTERS} characters after trimming; stored trimmed`,
  })
  @IsString()
  text!: string;
}
