import type { K8sObject } from './helm';
import { validateStrict } from './k8s-validate';

function deployment(container: Record<string, unknown> = {}, spec: Record<string, unknown> = {}): K8sObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'auth', labels: { 'app.kubernetes.io/name': 'auth' } },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/name': 'auth' } },
      template: {
        metadata: { labels: { 'app.kubernetes.io/name': 'auth' } },
        spec: {
          containers: [
            {
              name: 'auth',
              image: 'readiness-auth:1',
              resources: { limits: { cpu: '1', memory: '256Mi' } },
              ...container,
            },
          ],
        },
      },
      ...spec,
    },
  };
}

describe('strict Kubernetes validation', () => {
  test('when a Deployment is well formed, then it passes', () => {
    expect(validateStrict(deployment())).toEqual([]);
  });

  test('when a Deployment carries a bogus field, then validation names it', () => {
    expect(validateStrict(deployment({}, { bogus: true }))).toEqual(['/spec/bogus: unknown field']);
  });

  test('when a container field is misspelt, then validation names it', () => {
    expect(validateStrict(deployment({ imagePullPolicyy: 'Always' }))).toEqual([
      '/spec/template/spec/containers/0/imagePullPolicyy: unknown field',
    ]);
  });

  test('when a field has the wrong type, then validation fails', () => {
    expect(validateStrict(deployment({}, { replicas: 'two' })).join('\n')).toMatch(/replicas/);
  });

  test('when a ScaledObject has an unknown field, then validation fails', () => {
    const scaled: K8sObject = {
      apiVersion: 'keda.sh/v1alpha1',
      kind: 'ScaledObject',
      metadata: { name: 'notification' },
      spec: {
        scaleTargetRef: { name: 'notification' },
        triggers: [{ type: 'rabbitmq', metadata: { queueName: 'q' } }],
        maxReplicas: 3,
      },
    };
    expect(validateStrict(scaled).join('\n')).toMatch(/additional properties/);
  });

  test('when the kind has no schema, then validation fails rather than passing silently', () => {
    expect(validateStrict({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })).toEqual(
      ['no schema for example.com/v1 Widget'],
    );
  });
});
