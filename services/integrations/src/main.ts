// First: traces (when OTEL_EXPORTER_OTLP_ENDPOINT is set) wrap express, pg and amqplib before they load.
import '@readiness/kit/telemetry';
import { runMain } from '@readiness/kit/runtime';
import { integrationsService } from './service';

runMain(integrationsService);
