import { randomUUID } from 'node:crypto';
import {
  AdminRole,
  AdminPasswordResetSchema,
  create,
  decodeEnvelope,
  decodePayload,
  encodeEnvelope,
  encodePayload,
  events,
} from '.';

describe('event contracts', () => {
  test('when an event name is registered, then it follows <context>.<entity>.<past-verb>.v<N>', () => {
    for (const name of Object.keys(events)) {
      expect(name).toMatch(/^[a-z]+\.[a-z-]+\.[a-z-]+\.v\d+$/);
    }
  });

  test('when an envelope is encoded and decoded, then every field survives', () => {
    const payload = encodePayload(
      'auth.admin.password-reset.v1',
      create(AdminPasswordResetSchema, {
        adminId: 'a1',
        name: 'Ada',
        email: 'ada@example.com',
        temporaryPassword: 'x',
      }),
    );
    const fields = {
      id: randomUUID(),
      name: 'auth.admin.password-reset.v1',
      occurredAt: new Date('2026-01-02T03:04:05.678Z'),
      correlationId: 'corr-1',
      traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
      source: 'auth',
      payload,
    };
    const decoded = decodeEnvelope(encodeEnvelope(fields));
    expect(decoded).toMatchObject({ ...fields, payload: expect.any(Uint8Array) });
    expect(decodePayload('auth.admin.password-reset.v1', decoded.payload)).toMatchObject({
      adminId: 'a1',
      email: 'ada@example.com',
      temporaryPassword: 'x',
    });
    expect(AdminRole.SUPER_ADMIN).toBe(2);
  });

  test('when bytes are not an envelope, then decoding throws', () => {
    expect(() => decodeEnvelope(Buffer.from('not a protobuf message at all'))).toThrow();
    expect(() => decodeEnvelope(new Uint8Array())).toThrow(/malformed/);
  });
});
