import { upstreamNames } from '@readiness/contracts';
import { serviceModules } from '../../../deploy/all-in-one/src/service-modules';
import { matchRoute, requiresAdmin, routingKey } from '../src/routes';

/** Every operation every service declares: the gateway's table must send each to its service, with its access. */
const declared = upstreamNames
  .map((name) => serviceModules[name])
  .flatMap((service) =>
    Object.entries(service.openapi!.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => ['get', 'put', 'post', 'patch', 'delete'].includes(method))
        .map(([method, op]) => ({
          service: service.name,
          method: method.toUpperCase(),
          // A path parameter as a caller would fill it in.
          path: path.replace(/\{(\w+)\}/g, 'a1b2'),
          admin: Boolean((op as { security?: unknown[] }).security?.length),
        })),
    ),
  );

describe("the gateway's route table against the services' declarations", () => {
  it('when a service declares an operation, then the gateway sends it to that service', () => {
    expect(declared.length).toBeGreaterThan(40);
    const misrouted = declared
      .map((op) => ({ ...op, to: matchRoute(op.method, routingKey(op.path))?.upstream }))
      .filter((op) => op.to !== op.service);
    expect(misrouted).toEqual([]);
  });

  it('when an operation needs an admin, then the gateway asks for the token; when it is public, then it does not', () => {
    const wrong = declared.filter((op) => {
      const key = routingKey(op.path);
      return requiresAdmin(key, matchRoute(op.method, key)) !== op.admin;
    });
    expect(wrong).toEqual([]);
  });
});
