export { gatewayService, start, type GatewayDeps, type GatewayOptions, type RunningGateway } from './service';
export { configSchema, type GatewayConfig } from './config';
export { ROUTES, matchRoute, type RouteRule, type UpstreamName } from './routes';
export type { ApiDocsOptions } from './docs';
