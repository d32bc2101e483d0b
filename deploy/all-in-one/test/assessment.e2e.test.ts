import { api, SEED as OWNER, sharedOrOwnProduct, type RunningProduct } from './launcher';

jest.setTimeout(120_000);

interface Assessment {
  version: number;
  isActive: boolean;
  title: string;
  passingScore: number;
  timeLimit: number;
  sections: unknown[];
  questions: Array<{ id: string; downloadableFile?: { filename: string; originalName: string } }>;
  createdBy: { name: string };
}

describe('the assessment end to end through the gateway of `make start`', () => {
  let product: RunningProduct;

  beforeAll(async () => {
    product = await sharedOrOwnProduct();
  });
  afterAll(async () => {
    await product?.stop();
  });

  test('when the product first starts, then the sample assessment is there; an admin saves a new version, and its file downloads without a token', async () => {
    const base = product.url;
    const login = await api<{ token: string }>(base, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
    });
    expect(login.status).toBe(200);
    const token = login.body.token;

    expect((await api(base, 'GET', '/api/assessment')).status).toBe(401);
    const seeded = await api<{ assessment: Assessment }>(base, 'GET', '/api/assessment', { token });
    expect(seeded.status).toBe(200);
    expect(seeded.body.assessment).toMatchObject({
      version: 1,
      isActive: true,
      passingScore: 70,
      timeLimit: 30,
    });
    expect(seeded.body.assessment.sections).toHaveLength(4);

    const saved = await api<{ assessment: Assessment }>(base, 'PUT', '/api/assessment', {
      token,
      body: { ...seeded.body.assessment, title: 'Online Learning Readiness', changeNotes: 'Renamed' },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.assessment).toMatchObject({
      version: 2,
      isActive: true,
      title: 'Online Learning Readiness',
    });

    const versions = await api<{
      versions: Array<{ version: number; isActive: boolean; createdBy: { name: string } }>;
    }>(base, 'GET', '/api/assessment/versions', { token });
    expect(versions.body.versions.map((v) => [v.version, v.isActive])).toEqual([
      [2, true],
      [1, false],
    ]);
    // The name comes from auth's event for the seeded super admin.
    expect(versions.body.versions[0]!.createdBy.name).not.toBe('');

    const file = seeded.body.assessment.questions.find((q) => q.downloadableFile)!.downloadableFile!;
    const download = await fetch(`${base}/api/assessment/files/${file.filename}`);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('attachment;');
    expect(download.headers.get('x-content-type-options')).toBe('nosniff');

    // An upload goes through the gateway as multipart, and a file no version uses can be deleted again.
    const form = new FormData();
    form.append('file', new Blob(['Bring a pen and paper.\n']), 'checklist.txt');
    const uploaded = await fetch(`${base}/api/assessment/upload-file`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    expect(uploaded.status).toBe(201);
    const { file: stored } = (await uploaded.json()) as { file: { filename: string; originalName: string } };
    expect(stored.originalName).toBe('checklist.txt');
    const removed = await api<{ removed: boolean }>(
      base,
      'DELETE',
      `/api/assessment/file/${stored.filename}`,
      {
        token,
      },
    );
    expect(removed.body.removed).toBe(true);
  });
});
