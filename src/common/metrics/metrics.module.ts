import { DynamicModule, Global, Module } from '@nestjs/common';
import { Metrics } from './metrics';
import { MetricsRoute } from './metrics.route';

/** Makes the application's Metrics injectable everywhere; created by createApp, which also times HTTP requests with it. */
@Global()
@Module({})
export class MetricsModule {
  static forRoot(metrics: Metrics): DynamicModule {
    return { module: MetricsModule, providers: [{ provide: Metrics, useValue: metrics }, MetricsRoute], exports: [Metrics] };
  }
}
