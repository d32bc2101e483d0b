import {
  adminFactorChanged,
  adminPasswordReset,
  certificateIssued,
  studentInvitation,
  webhookEndpointDisabled,
} from '../src/domain/templates';

// A name written right to left: were it not isolated, the comma and the words after it would be set right to left
// with it. (An open override is refused at the door; the isolation holds for every name that got in before.)
const NAME = 'ليلى \u202eحسن';
const FSI = '\u2068';
const PDI = '\u2069';

describe('a name in a mail is set apart from the sentence around it', () => {
  test('when a student is invited, then the text isolates the name between U+2068 and U+2069 and the HTML in <bdi>', () => {
    for (const language of ['en', 'ar']) {
      const mail = studentInvitation({
        name: NAME,
        invitationUrl: 'https://readiness.example.edu/assessment/tok',
        assessmentTitle: 'Online Study Skills',
        timeLimitMinutes: 30,
        expiresAt: new Date('2027-01-31T12:00:00Z'),
        resent: false,
        language,
      });
      expect(mail.text).toContain(`${FSI}${NAME}${PDI}`);
      expect(mail.text.replace(`${FSI}${NAME}${PDI}`, '')).not.toMatch(/[\u2066-\u2069\u202a-\u202e]/);
      expect(mail.html).toContain(`<bdi>${NAME}</bdi>`);
    }
  });

  test('when a certificate is mailed, then the greeting isolates the name in text and HTML', () => {
    const mail = certificateIssued({
      name: NAME,
      assessmentTitle: 'Online Study Skills',
      percentage: 92,
      code: 'RDY-7K3F-92QX',
      verificationUrl: 'https://readiness.example.edu/verify/RDY-7K3F-92QX',
      resent: false,
    });
    expect(mail.text.split('\n')[0]).toBe(`Hello ${FSI}${NAME}${PDI},`);
    expect(mail.html).toContain(`<p>Hello <bdi>${NAME}</bdi>,</p>`);
  });

  test('when an admin’s password is reset, then the greeting isolates the name, escaped in HTML', () => {
    const mail = adminPasswordReset({
      name: `${NAME} <b>`,
      temporaryPassword: 'kV8#q2-Lm9!zT4',
      loginUrl: 'https://readiness.example.edu/admin/login',
    });
    expect(mail.text.split('\n')[0]).toBe(`Hello ${FSI}${NAME} <b>${PDI},`);
    expect(mail.html).toContain(`<p>Hello <bdi>${NAME} &lt;b&gt;</bdi>,</p>`);
  });

  test('when a super admin resets an admin’s sign-in factors, then both names are isolated in text and HTML', () => {
    const mail = adminFactorChanged({
      name: NAME,
      change: 'factors-reset',
      factorName: '',
      actorName: 'سارة',
      byOther: true,
      changedAt: new Date('2027-01-31T12:00:00Z'),
      securityUrl: 'https://readiness.example.edu/admin/security',
    });
    expect(mail.text).toContain(`Hello ${FSI}${NAME}${PDI},`);
    expect(mail.text).toContain(`${FSI}سارة${PDI}, a super administrator`);
    expect(mail.html).toContain(`<p>Hello <bdi>${NAME}</bdi>,</p>`);
    expect(mail.html).toContain('<bdi>سارة</bdi>, a super administrator');
  });

  test('when a super admin is told of a webhook endpoint disabled, then their name and the endpoint’s description are isolated, escaped in HTML', () => {
    const mail = webhookEndpointDisabled({
      name: NAME,
      url: 'https://crm.example.edu/hooks',
      description: `${NAME} <CRM>`,
      failingSince: new Date('2026-12-01T10:00:00Z'),
      disabledAt: new Date('2026-12-04T10:00:00Z'),
      lastStatus: 503,
      lastAnswer: 'busy',
      webhooksUrl: 'https://readiness.example.edu/admin/webhooks',
    });
    expect(mail.text.split('\n')[0]).toBe(`Hello ${FSI}${NAME}${PDI},`);
    expect(mail.text).toContain(`(${FSI}${NAME} <CRM>${PDI})`);
    expect(mail.html).toContain(`(<bdi>${NAME} &lt;CRM&gt;</bdi>)`);
  });
});
