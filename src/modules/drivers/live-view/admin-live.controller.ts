import { Controller, Get, Query } from '@nestjs/common';
import { ApiBadRequestResponse, ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { OperatorAction } from '../../../common/auth/operator-action.decorator';
import { ErrorResponseDto } from '../../../common/http/error-response.dto';
import { LiveViewQueryDto, LiveViewResponseDto } from './dto/live-view.dto';
import { LiveViewService } from './live-view.service';

@Controller('admin/live')
export class AdminLiveController {
  constructor(private readonly live: LiveViewService) {}

  @Get()
  @OperatorAction('read')
  @ApiOperation({
    summary: 'The live map: drivers and open requests in a rectangle',
    description:
      'From memory (the matcher and the open-requests index), no query: poll it every few seconds. At most 2,000 of each; a rectangle holding more answers some of them.',
  })
  @ApiOkResponse({ type: LiveViewResponseDto })
  @ApiBadRequestResponse({ type: ErrorResponseDto, description: 'A bound out of range, or a max below its min' })
  view(@Query() query: LiveViewQueryDto): LiveViewResponseDto {
    return this.live.view(query);
  }
}
