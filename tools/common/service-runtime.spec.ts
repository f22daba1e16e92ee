import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SERVICE_ENV, SERVICE_NODE_FLAGS } from './service-runtime';

/** docker/ holds literal copies of the services' runtime settings: they must not drift apart. */
describe('the services’ runtime settings in docker/', () => {
  const docker = (file: string) => readFileSync(join(resolve(__dirname, '../..'), 'docker', file), 'utf8');

  it('Dockerfile: every Node flag in its command, the environment in the image', () => {
    const dockerfile = docker('Dockerfile');
    const cmd = dockerfile.split('\n').find((l) => l.startsWith('CMD '))!;
    for (const flag of SERVICE_NODE_FLAGS) expect(cmd).toContain(`"${flag}"`);
    const env = dockerfile.split('\n').find((l) => l.startsWith('ENV '))!;
    for (const [name, value] of Object.entries(SERVICE_ENV)) expect(env).toContain(`${name}=${value}`);
  });

  it('compose.yaml: every Node flag in each service command that names its node flags', () => {
    const commands = [...docker('compose.yaml').matchAll(/command:\s*\[([^\]]*)\]/g)]
      .map((m) => m[1]!)
      .filter((c) => c.includes("'dist/apps/"));
    expect(commands).toHaveLength(4); // api-v1, api-v1-worker, api-v2, mcp-server (the gateway runs the image's CMD)
    for (const command of commands)
      for (const flag of SERVICE_NODE_FLAGS) expect(command).toContain(`'${flag}'`);
  });
});
