import { describeDetails } from '../components/audit-columns';

describe('the details of an audit entry in words', () => {
  it.each([
    [{ method: 'password' }, 'with a password'],
    [{ method: 'password+totp' }, 'with a password and an authenticator code'],
    [{ method: 'password+recovery-code' }, 'with a password and a recovery code'],
    [{ method: 'password+passkey' }, 'with a password and a passkey'],
    [{ method: 'passkey', passkey: 'Work laptop' }, "with a passkey · 'Work laptop'"],
    [{ method: 'passkey', name: 'Phone' }, "with a passkey · 'Phone'"],
    [{ method: 'sso' }, 'through single sign-on'],
    [{ method: 'password', reason: 'wrong_password' }, 'with a password · wrong password'],
    [{ name: 'not a method' }, ''],
    [{ method: 'recovery-code', address: '10.0.0.1' }, 'recovery code'],
    [{ extraTimePercent: 50 }, '50% extra time'],
    [{ originalName: 'map.png', filename: 'a1b2.png', size: 120 }, 'map.png'],
    [{ description: 'Admissions CRM', events: ['result.recorded'] }, 'Admissions CRM'],
    [{ description: '', reason: 'Failed for 72 h; last answer: none' }, 'Failed for 72 h; last answer: none'],
  ])('when the details are %j, then they read "%s"', (details, words) => {
    expect(describeDetails(details)).toBe(words);
  });
});
