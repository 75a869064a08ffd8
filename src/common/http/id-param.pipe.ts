import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { CommonError } from '../errors/common.errors';

const MAX_INT = 2_147_483_647;

/**
 * A path segment naming a row by its integer id (users, drivers, wallets by user id): 1 to
 * 2147483647, else a 400 naming the parameter (never a 500 from an out-of-range SQL integer).
 */
@Injectable()
export class IntIdPipe implements PipeTransform<string, number> {
  transform(value: string, metadata: ArgumentMetadata): number {
    const name = metadata.data ?? 'id';
    const id = /^[1-9][0-9]{0,9}$/.test(value) ? Number(value) : NaN;
    if (!(id <= MAX_INT)) throw CommonError.validation(name, `${name} must be a whole number from 1 to ${MAX_INT}`);
    return id;
  }
}
