import { busContract } from './contract';
import { RabbitEnv } from './rabbit-harness';

jest.setTimeout(30_000);

describe('RabbitMQ bus: delivery contract', () => {
  const env = new RabbitEnv();
  beforeAll(() => env.setUp());
  afterAll(() => env.tearDown());

  busContract((opts) => env.harness(opts));
});
