import { chromium, type Browser } from 'playwright-core';
import {
  adminPasswordReset,
  certificateIssued,
  studentInvitation,
  webhookEndpointDisabled,
} from '../src/domain/templates';

jest.setTimeout(60_000);

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
});
afterAll(() => browser?.close());

const token = 'Zm9yLWEtdmVyeS1sb25nLWludml0YXRpb24tdG9rZW4tdGhhdC1uZXZlci1icmVha3M';
/** Ada's invitation: a long link, extra time and a contact. */
const invitation = {
  name: 'Ada Lovelace',
  invitationUrl: `https://readiness.example-university.edu/assessment/${token}`,
  assessmentTitle: 'Distance Education Readiness Assessment',
  timeLimitMinutes: 30,
  extraTimePercent: 50,
  expiresAt: new Date('2027-01-31T12:00:00Z'),
  contact: 'admissions@example-university.edu',
  resent: false,
};
const mails = {
  invitation: studentInvitation(invitation),
  certificate: certificateIssued({
    name: 'Ada Lovelace',
    assessmentTitle: 'Distance Education Readiness Assessment',
    percentage: 92,
    code: 'RDY-7K3M-Q9TX-22PL',
    verificationUrl: 'https://readiness.example-university.edu/verify/RDY-7K3M-Q9TX-22PL',
    resent: false,
  }),
  'Arabic invitation': studentInvitation({ ...invitation, name: 'ليلى حسن', language: 'ar' }),
  'Arabic certificate': certificateIssued({
    name: 'ليلى حسن',
    assessmentTitle: 'Distance Education Readiness Assessment',
    percentage: 92,
    code: 'RDY-7K3M-Q9TX-22PL',
    verificationUrl: 'https://readiness.example-university.edu/verify/RDY-7K3M-Q9TX-22PL',
    resent: false,
    language: 'ar',
  }),
  'French invitation': studentInvitation({
    name: 'Zoë Ångström-Núñez',
    invitationUrl: `https://readiness.example-university.edu/assessment/${token}`,
    assessmentTitle: 'Distance Education Readiness Assessment',
    timeLimitMinutes: 30,
    extraTimePercent: 50,
    expiresAt: new Date('2027-01-31T12:00:00Z'),
    resent: false,
    language: 'fr',
  }),
  'password reset': adminPasswordReset({
    name: 'Grace Hopper',
    temporaryPassword: 'kV8#q2-Lm9!zT4',
    loginUrl: 'https://readiness.example-university.edu/admin/login',
  }),
  // A long URL and an answer of one long word: both must wrap.
  'webhook endpoint disabled': webhookEndpointDisabled({
    name: 'Grace Hopper',
    url: `https://admissions-crm.example-university.edu/integrations/readiness/webhooks/${token}`,
    description: 'Admissions CRM',
    failingSince: new Date('2026-12-01T10:00:00Z'),
    disabledAt: new Date('2026-12-04T10:00:00Z'),
    lastStatus: 502,
    lastAnswer: `upstream_connect_error_or_disconnect_reset_before_headers_${token}`,
    webhooksUrl: 'https://readiness.example-university.edu/admin/webhooks',
  }),
};

test.each(Object.entries(mails))(
  'when the %s mail is read on a 360 px phone, then it fits the screen without sideways scrolling',
  async (_name, mail) => {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 } });
    try {
      await page.setContent(mail.html);
      // Measured in the page: how wide the mail lays itself out.
      const width = await page.evaluate('document.documentElement.scrollWidth');
      expect(width).toBeLessThanOrEqual(360);
    } finally {
      await page.close();
    }
  },
);
