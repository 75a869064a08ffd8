import { PageQueryDto } from '../../../common/http/page-query.dto';

/** Paging of the completed rides behind the earnings totals. */
export class EarningsQueryDto extends PageQueryDto {}
