import { api, SEED as OWNER, sharedOrOwnProduct, type RunningProduct } from './launcher';

jest.setTimeout(120_000);

interface Analysis {
  version: number | null;
  versions: number[];
  questions: Array<{ id: string; attempts: number; facility: number }>;
}

describe('the results service in `make start`', () => {
  let product: RunningProduct;

  beforeAll(async () => {
    product = await sharedOrOwnProduct();
  });
  afterAll(async () => {
    await product?.stop();
  });

  test('when the product first starts, then the dashboard and the results answer through the gateway, and the results service holds the seeded version', async () => {
    const base = product.url;
    const login = await api<{ token: string }>(base, 'POST', '/api/auth/login', {
      body: { email: OWNER.email, password: OWNER.password },
    });
    const token = login.body.token;

    expect((await api(base, 'GET', '/api/admin/dashboard')).status).toBe(401);
    const dashboard = await api<{ stats: Record<string, number>; recentResults: unknown[] }>(
      base,
      'GET',
      '/api/admin/dashboard',
      { token },
    );
    expect(dashboard.status).toBe(200);
    expect(dashboard.body).toEqual({
      stats: {
        totalStudents: 0,
        completedAssessments: 0,
        passedAssessments: 0,
        pendingInvites: 0,
        passRate: 0,
        inProgress: 0,
      },
      recentResults: [],
    });

    const list = await api<{ results: unknown[]; pagination: { totalResults: number } }>(
      base,
      'GET',
      '/api/admin/results?status=passed&sortBy=score',
      { token },
    );
    expect(list.status).toBe(200);
    expect(list.body.pagination.totalResults).toBe(0);

    const analysis = await api<Analysis>(base, 'GET', '/api/admin/results/analysis', { token });
    expect(analysis.status).toBe(200);
    expect(analysis.body.version).toBe(1);
    expect(analysis.body.versions).toEqual([1]);
    expect(analysis.body.questions.length).toBeGreaterThan(0);
    expect(analysis.body.questions.every((q) => q.attempts === 0 && q.facility === 0)).toBe(true);
  });
});
