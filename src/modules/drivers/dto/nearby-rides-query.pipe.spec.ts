import { getMetadataStorage } from 'class-validator';
import { createValidationPipe, ValidationFailedException } from '../../../common/http/validation.pipe';
import { NearbyRidesQueryDto } from './nearby-rides-query.dto';
import { fastNearbyRidesQuery, NEARBY_QUERY_RULES, NearbyRidesQueryPipe } from './nearby-rides-query.pipe';

const full = createValidationPipe();

/** The outcome of the full global pipe on the query, as before this route had its own pipe. */
async function viaFullPipe(query: object): Promise<unknown> {
  try {
    return await full.transform(query, { type: 'query', metatype: NearbyRidesQueryDto });
  } catch (err) {
    return { error: (err as ValidationFailedException).details };
  }
}

async function viaRoutePipe(query: object): Promise<unknown> {
  try {
    return await new NearbyRidesQueryPipe().transform(query);
  } catch (err) {
    return { error: (err as ValidationFailedException).details };
  }
}

const values = ['52.52', '-33.9', '0', '90', '90.0', '-90', '90.0001', '180', '-180.5', '0.1', '0.05', '50', '50.01', '5', '+5', '005',
  '1e1', '0x10', '', ' 5', 'abc', 'NaN', 'Infinity', '0.0000001', '12.123456789012345678'];

describe('NearbyRidesQueryPipe', () => {
  it('has a rule for every validated field of NearbyRidesQueryDto', () => {
    const validated = new Set(getMetadataStorage().getTargetValidationMetadatas(NearbyRidesQueryDto, '', true, false).map((m) => m.propertyName));
    expect(Object.keys(NEARBY_QUERY_RULES).sort()).toEqual([...validated].sort());
  });

  it('answers every query exactly as the full validation pipe does (values, errors and details)', async () => {
    const queries: object[] = [{}, { unknown: '1' }, { latitude: ['1', '2'] }, { latitude: '52.5', longitude: '13.4', radius_km: '5', extra: 'x' }];
    for (const v of values) {
      queries.push({ latitude: v }, { longitude: v }, { radius_km: v }, { latitude: v, longitude: '13.4', radius_km: v });
    }
    for (const q of queries) {
      expect([q, await viaRoutePipe(q)]).toEqual([q, await viaFullPipe(q)]);
    }
  });

  it('takes the shortcut for ordinary queries and builds the DTO with numbers', () => {
    const dto = fastNearbyRidesQuery({ latitude: '37.7936', longitude: '-122.3958', radius_km: '5' });
    expect(dto).toBeInstanceOf(NearbyRidesQueryDto);
    expect(dto).toEqual(Object.assign(new NearbyRidesQueryDto(), { latitude: 37.7936, longitude: -122.3958, radius_km: 5 }));
    expect(fastNearbyRidesQuery({})).toEqual(new NearbyRidesQueryDto());
    expect(fastNearbyRidesQuery({ latitude: '91' })).toBeUndefined();
    expect(fastNearbyRidesQuery({ radius_km: '1e1' })).toBeUndefined();
  });
});
