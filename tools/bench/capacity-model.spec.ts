import { capacity, cpuPerRequest, medianCpu, type ModelInputs } from './capacity-model';

const inputs: ModelInputs = {
  mix: { lookup: 0.9, search: 0.1 },
  cpu: {
    lookup: { 'api-gateway': 300, 'api-v1': 400, postgres: 100, 'load generator': 999 },
    search: { 'api-gateway': 2000, 'api-v1': 3000, postgres: 6000 },
  },
  utilisation: 0.5,
  replicaCores: 8,
  redisUsPerOp: 10,
  redisOpsPerRequest: 1,
};

describe('capacity model', () => {
  it('weights each tier by the mix and leaves the load generator out', () => {
    expect(cpuPerRequest(inputs)).toEqual({ gateway: 470, 'api-v1': 660, 'api-v2': 0, postgres: 690 });
  });

  it('turns a rate into cores, pods (at least two), replicas and shards', () => {
    const c = capacity(inputs, 10_000);
    expect(c.cores.gateway).toBeCloseTo(9.4);
    expect(c.cores.postgres).toBeCloseTo(13.8);
    expect(c.cores.redis).toBeCloseTo(0.2);
    expect([c.gatewayPods, c.v1Pods, c.v2Pods, c.replicas, c.redisShards]).toEqual([10, 14, 2, 2, 1]);
  });

  it('takes the median of each process over runs', () => {
    const run = (us: number) => ({ row: { cpuUs: { 'api-v1': us } } });
    expect(medianCpu([run(3), run(1), run(2)])).toEqual({ row: { 'api-v1': 2 } });
    expect(medianCpu([run(1), run(2)])).toEqual({ row: { 'api-v1': 1.5 } });
  });
});
