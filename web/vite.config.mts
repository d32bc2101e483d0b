import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The gateway (port 8080) serves the API in development; the dev server forwards to it so the
// browser sees one origin, as it does in production where the gateway serves web/dist.
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  server: {
    port: 5173,
    proxy: {
      '/api': { target: gateway, changeOrigin: true },
      '/dev': { target: gateway, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The manifest lets a test prove that the student pages never pull in admin code.
    manifest: true,
    // No source maps in what the gateway serves: they would hand out the app's full source.
    sourcemap: false,
  },
});
