import { QueryFailedError } from 'typeorm';
import { recogniseOutage } from './outage';

function pgError(code: string, message = 'pg error'): Error {
  return Object.assign(new Error(message), { code });
}

describe('recogniseOutage', () => {
  it.each([
    ['admin shutdown 57P01', pgError('57P01', 'terminating connection due to administrator command')],
    ['cannot connect now 57P03', pgError('57P03', 'the database system is starting up')],
    ['connection exception 08006', pgError('08006')],
    ['connection does not exist 08003', pgError('08003')],
    ['too many connections 53300', pgError('53300')],
    ['statement timeout 57014', pgError('57014', 'canceling statement due to statement timeout')],
    ['ECONNREFUSED', pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432')],
    ['ECONNRESET', pgError('ECONNRESET', 'read ECONNRESET')],
    ['a terminated connection', new Error('Connection terminated unexpectedly')],
    ['a connect timeout', new Error('Connection terminated due to connection timeout')],
    ['the pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['a refused connection to every address', Object.assign(new AggregateError([pgError('ECONNREFUSED')], ''), {})],
    ['a driver error wrapped by TypeORM', new QueryFailedError('SELECT 1', [], pgError('57P01'))],
    ['an error given as cause', new Error('wrapped', { cause: pgError('08001') })],
  ])('a database outage: %s', (_name, err) => {
    expect(recogniseOutage(err)).toMatchObject({ dependency: 'database', message: expect.stringMatching(/database/) });
  });

  it.each([
    [
      'retries exhausted',
      Object.assign(new Error('Reached the max retries per request limit (which is 2). Refer to "maxRetriesPerRequest" option for details.'), {
        name: 'MaxRetriesPerRequestError',
      }),
    ],
    ['a closed connection', new Error('Connection is closed.')],
    ['no offline queue', new Error("Stream isn't writeable and enableOfflineQueue options is false")],
  ])('a Redis outage: %s', (_name, err) => {
    expect(recogniseOutage(err)).toMatchObject({ dependency: 'redis' });
  });

  it.each([
    ['a unique violation', new QueryFailedError('INSERT', [], pgError('23505'))],
    ['a syntax error', pgError('42601')],
    ['a serialization failure', pgError('40001')],
    ['a lock timeout', pgError('55P03')],
    ['a programming error', new TypeError("Cannot read properties of undefined (reading 'id')")],
    ['not an error', 'Connection terminated'],
    ['null', null],
  ])('not an outage: %s', (_name, err) => {
    expect(recogniseOutage(err)).toBeUndefined();
  });

  it('stops at a cycle of causes', () => {
    const a: Error & { cause?: unknown } = new Error('a');
    a.cause = a;
    expect(recogniseOutage(a)).toBeUndefined();
  });
});
