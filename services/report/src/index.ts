export { reportService, type ReportOptions } from './service';
export { type ReportConfig, type ReportConfigInput } from './config';
export { type Renderer, type RendererStatus } from './rendering/renderer';
