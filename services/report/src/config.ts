import { adminAuthEnv, dataServiceEnv, env } from '@readiness/kit/config';
import { checkObjectStorage, objectStorageEnv } from '@readiness/kit/storage';
import { z } from 'zod';

/** Every key is the environment variable it reads. */
export const configSchema = z
  .object({
    ...dataServiceEnv,
    ...adminAuthEnv,
    ...objectStorageEnv,
    /** The site's own origin: certificates link to `{PUBLIC_ORIGIN}/verify/{code}`. */
    PUBLIC_ORIGIN: z.string().url().default('http://localhost:8080'),
    /** Who awards the certificate: printed on it and in its mail. */
    PROVIDER_NAME: z.string().trim().min(1).max(120).default('Readiness Distance Education'),
    /** The name and role printed under the certificate's signature line. */
    CERTIFICATE_SIGNATORY: z.string().trim().min(1).max(120).default('Director of Distance Education'),
    /**
     * A Chromium or Chrome binary to render PDFs with. When set it must work (the service refuses to start
     * otherwise); unset, the system's Chromium is used, else the one the npm package `@sparticuz/chromium` ships.
     */
    PUPPETEER_EXECUTABLE_PATH: z.string().min(1).optional(),
    /** Whether the Chromium shipped in `@sparticuz/chromium` may be used when no other is found (Linux x64). */
    PDF_BUNDLED_CHROMIUM: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /**
     * Whether Chromium runs its own sandbox. The image sets false: without capabilities and under the default seccomp
     * profile a container cannot give Chromium the namespaces it needs, and the browser would not start.
     */
    PDF_CHROMIUM_SANDBOX: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Pages rendering at once in the one browser; further renders wait their turn. */
    PDF_POOL_SIZE: z.coerce.number().int().min(1).max(16).default(2),
    /** PDFs a page renders before it is closed and replaced, which bounds the browser's memory. */
    PDF_PAGE_RENDERS: z.coerce.number().int().min(1).max(100_000).default(20),
    /**
     * Seconds without a PDF after which the browser is closed (an idle Chromium holds about 350 MB); the next PDF
     * launches it again, about a second later. 0 keeps it running.
     */
    PDF_BROWSER_IDLE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
    /** A render that takes longer fails (its page is replaced). */
    PDF_RENDER_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(20_000),
    /** How long the signed certificate download link that `report.certificate.issued.v2` carries stays valid. */
    CERTIFICATE_LINK_TTL_HOURS: z.coerce
      .number()
      .int()
      .min(1)
      .max(24 * 90)
      .default(72),
    /**
     * Signs certificate download links (at least 32 characters). Required in production; elsewhere generated once
     * under DATA_DIR.
     */
    CERTIFICATE_LINK_KEY: z.string().min(32).optional(),
    /**
     * RSA private key (PEM, at least 2048 bits) that signs certificates' Open Badges 3.0 credentials (VC-JWT, RS256);
     * its public key is served at `/api/verify/jwks`. Required in production (every replica signs with it); elsewhere
     * generated once under DATA_DIR.
     */
    CREDENTIAL_PRIVATE_KEY: env.optionalSecret(),
    /** Public keys (PEM, concatenated) of retired credential keys: credentials they signed still check. */
    CREDENTIAL_PREVIOUS_PUBLIC_KEYS: env.optionalSecret(),
    /** Seconds between sweeps for certificates still waiting to be rendered (no browser yet, a crash). */
    CERTIFICATE_SWEEP_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  })
  .superRefine((c, ctx) => {
    checkObjectStorage(c, ctx);
    if (c.NODE_ENV !== 'production') return;
    for (const key of ['CERTIFICATE_LINK_KEY', 'CREDENTIAL_PRIVATE_KEY'] as const) {
      if (!c[key]) ctx.addIssue({ code: 'custom', path: [key], message: 'is required in production' });
    }
  });

export type ReportConfig = z.infer<typeof configSchema>;
export type ReportConfigInput = z.input<typeof configSchema>;
