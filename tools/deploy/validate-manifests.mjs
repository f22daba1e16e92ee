// Validates Kubernetes objects against the Kubernetes OpenAPI schemas with kubernetes-models (ES
// modules only, which Jest's CommonJS runtime cannot load: tools/deploy/k8s-manifests.spec.ts runs
// this in Node). Reads a JSON array of objects on stdin; prints a JSON array of verdicts, in order.
import { readFileSync } from 'node:fs';

const verdicts = [];
for (const object of JSON.parse(readFileSync(0, 'utf8'))) {
  const { apiVersion, kind } = object;
  // One module per API group and version (`kubernetes-models/apps/v1`), one class per kind.
  const Model = await import(`kubernetes-models/${apiVersion}`).then(
    (models) => models[kind],
    () => undefined,
  );
  if (typeof Model !== 'function') {
    verdicts.push({ valid: false, error: `kubernetes-models has no ${apiVersion} ${kind}` });
    continue;
  }
  try {
    new Model(object).validate();
    verdicts.push({ valid: true });
  } catch (error) {
    verdicts.push({ valid: false, error: String(error?.message ?? error) });
  }
}
process.stdout.write(JSON.stringify(verdicts));
