export { reportService, type ReportOptions } from './service';
export { configSchema, type ReportConfig, type ReportConfigInput } from './config';
export { reportApi } from './entry-points/http/api';
export { embeddedFonts, type Renderer, type RendererStatus } from './rendering/renderer';
