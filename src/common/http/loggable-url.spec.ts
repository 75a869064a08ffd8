import type { FastifyRequest } from 'fastify';
import { loggableUrl } from './loggable-url';

const request = (url: string, route?: string) => ({ url, routeOptions: route === undefined ? undefined : { url: route } }) as unknown as FastifyRequest;

describe('loggableUrl', () => {
  it('logs a route with a secret token parameter as its pattern', () => {
    expect(loggableUrl(request('/api/v1/shared-rides/q3Vh0x2Yl9cR8mT1bN4kZ7wE6aS5dF0gH2jK9lP3oUi', '/api/v1/shared-rides/:token'))).toBe(
      '/api/v1/shared-rides/:token',
    );
  });

  it('logs every other request as it came', () => {
    expect(loggableUrl(request('/api/v1/rides/abc?x=1', '/api/v1/rides/:ride_id'))).toBe('/api/v1/rides/abc?x=1');
    expect(loggableUrl(request('/api/v1/tokens/x', '/api/v1/:tokenish/x'))).toBe('/api/v1/tokens/x');
    expect(loggableUrl(request('/nowhere'))).toBe('/nowhere');
  });
});
