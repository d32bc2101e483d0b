/*
 * A passkey authenticator in software, for API tests: it makes a P-256 credential and answers WebAuthn ceremonies
 * the way a browser and a platform authenticator do (clientDataJSON, authenticator data, a 'none' attestation and
 * ES256 signatures), so the service's checks run on real bytes. Browser tests use Chromium's virtual authenticator.
 */
import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();

const UP = 0x01;
const UV = 0x04;
const AT = 0x40;

export interface CeremonyOptions {
  challenge: string;
  user?: { id: string };
}

export class SoftwarePasskey {
  readonly credentialId = randomBytes(16);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  private userHandle = '';
  signCount = 0;

  constructor(
    readonly origin = 'http://localhost:8080',
    readonly rpId = new URL(origin).hostname,
  ) {}

  get id(): string {
    return b64url(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  }

  private authenticatorData(flags: number, attested: boolean, rpId = this.rpId): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.signCount);
    const parts = [sha256(rpId), Buffer.from([flags | (attested ? AT : 0)]), count];
    if (attested) {
      const length = Buffer.alloc(2);
      length.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), length, this.credentialId, Buffer.from(this.cosePublicKey()));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** What `navigator.credentials.create()` would answer to these options. */
  register(options: CeremonyOptions, tweak: { origin?: string; challenge?: string } = {}) {
    if (options.user) this.userHandle = options.user.id;
    const clientDataJSON = this.clientData(
      'webauthn.create',
      tweak.challenge ?? options.challenge,
      tweak.origin ?? this.origin,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, unknown>([
        ['fmt', 'none'],
        ['attStmt', new Map()],
        ['authData', new Uint8Array(this.authenticatorData(UP | UV, true))],
      ]) as never,
    );
    return this.credential({
      clientDataJSON: b64url(clientDataJSON),
      attestationObject: b64url(attestationObject),
      transports: ['internal'],
    });
  }

  /**
   * What `navigator.credentials.get()` would answer: the counter goes up by one unless `signCount` says otherwise,
   * and the person is verified on the device unless `verified` is false.
   */
  answer(
    options: CeremonyOptions,
    tweak: {
      origin?: string;
      rpId?: string;
      verified?: boolean;
      signCount?: number;
      challenge?: string;
    } = {},
  ) {
    this.signCount = tweak.signCount ?? this.signCount + 1;
    const authenticatorData = this.authenticatorData(
      tweak.verified === false ? UP : UP | UV,
      false,
      tweak.rpId,
    );
    const clientDataJSON = this.clientData(
      'webauthn.get',
      tweak.challenge ?? options.challenge,
      tweak.origin ?? this.origin,
    );
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      this.keys.privateKey,
    );
    return this.credential({
      clientDataJSON: b64url(clientDataJSON),
      authenticatorData: b64url(authenticatorData),
      signature: b64url(signature),
      ...(this.userHandle ? { userHandle: this.userHandle } : {}),
    });
  }

  /** The credential as @simplewebauthn/browser sends it. */
  private credential<R>(response: R) {
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key' as const,
      authenticatorAttachment: 'platform' as const,
      clientExtensionResults: {},
      response,
    };
  }
}
