import { createLogger } from '@readiness/kit/logger';
import { chooseBrowser } from '../src/rendering/browser-choice';
import { createRenderer, type Renderer } from '../src/rendering/renderer';
import { certificateHtml } from '../src/domain/templates/certificate';
import { loadFontFaces } from '../src/domain/templates/fonts';
import { pdfText } from './harness';

jest.setTimeout(60_000);

const logger = createLogger({ name: 'certificate-print-test', level: 'silent' });
const fontFaces = loadFontFaces();
let renderer: Renderer;
beforeAll(async () => {
  renderer = createRenderer({
    choose: () => chooseBrowser({ bundled: false, bundledDir: '/nonexistent', logger }),
    fontFaces,
    poolSize: 1,
    timeoutMs: 20_000,
    logger,
  });
  await renderer.start();
});
afterAll(() => renderer?.close());

const CODE = 'RDY-7K3M-Q9TX';

test.each([
  'https://readiness.example.edu',
  'https://readiness.northfield.edu',
  'https://assess.northfield-community-college.example.edu',
  'https://readiness-assessment.distance-learning.northfield-community-college.example.edu',
])(
  'when the certificate of a product at %s is printed, then its verify address wraps before the code, never inside it',
  async (origin) => {
    const html = await certificateHtml(
      {
        name: 'Grace Hopper',
        assessmentTitle: 'Distance Learning Readiness',
        percentage: 92,
        awardedAt: new Date('2026-11-24T10:00:00Z'),
        code: CODE,
        verificationUrl: `${origin}/verify/${CODE}`,
        providerName: 'Northfield College',
        signatory: 'Dr. Ada Byron',
      },
      fontFaces,
    );
    const text = pdfText(await renderer.render(html));
    // Whole under "Verification code" and whole at the end of the address: a code cut by a line break would be
    // found once only.
    expect(text.split(CODE)).toHaveLength(3);
    expect(text).toContain('verify/');
  },
);
