import { Controller, Get } from '@nestjs/common';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiOperation, ApiTags, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { WalletResponseDto } from './dto/wallet-response.dto';
import { WalletsService } from './wallets.service';

@ApiTags('wallet')
@ApiBearerAuth()
@Controller('wallet')
export class WalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Get()
  @ApiOperation({ summary: "The caller's wallet balance" })
  @ApiOkResponse({ type: WalletResponseDto })
  @ApiUnauthorizedResponse({ type: ErrorResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'The account has no wallet yet (registration not completed)' })
  async getWallet(@CurrentUser() user: AuthenticatedUser): Promise<WalletResponseDto> {
    return WalletResponseDto.from(await this.wallets.getWallet(user.id));
  }
}
