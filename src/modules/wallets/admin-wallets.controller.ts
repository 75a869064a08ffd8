import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { CurrentUser } from '../../common/auth/auth.decorators';
import type { AuthenticatedUser } from '../../common/auth/authenticated-user';
import { OperatorAction } from '../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../common/http/error-response.dto';
import { IntIdPipe } from '../../common/http/id-param.pipe';
import { toMajor, toMinor } from '../../common/money';
import { AdjustWalletDto, WalletAdjustmentResponseDto } from './dto/adjust-wallet.dto';
import { WalletsService } from './wallets.service';

@Controller('admin/wallets')
export class AdminWalletsController {
  constructor(private readonly wallets: WalletsService) {}

  @Post(':user_id/adjust')
  @HttpCode(200)
  @OperatorAction('wallets.adjust')
  @ApiOperation({
    summary: "Adjust a user's wallet",
    description: "A signed amount against the platform's ledger account, as one balanced transfer; recorded in the audit trail.",
  })
  @ApiOkResponse({ type: WalletAdjustmentResponseDto })
  @ApiNotFoundResponse({ type: ErrorResponseDto, description: 'Wallet not found' })
  @ApiConflictResponse({ type: ErrorResponseDto, description: 'Adjustment would take the wallet below zero' })
  async adjust(
    @CurrentUser() user: AuthenticatedUser,
    @Param('user_id', IntIdPipe) userId: number,
    @Body() body: AdjustWalletDto,
  ): Promise<WalletAdjustmentResponseDto> {
    const amountMinor = toMinor(body.amount) ?? 0;
    const { wallet, transferId } = await this.wallets.adjust(userId, amountMinor, { actorId: user.id, reason: body.reason });
    return { user_id: userId, amount: toMajor(amountMinor), balance: toMajor(wallet.balanceMinor), currency: wallet.currency.trim(), transfer_id: transferId };
  }
}
