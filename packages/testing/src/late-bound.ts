/**
 * A stand-in for an object a hook makes later (a service started in `beforeAll`): the file's tests name it as if it
 * were there, and every use reaches the object `get` answers at that moment. Used before there is one, it throws
 * with `what`.
 */
export function lateBound<T extends object>(get: () => T | undefined, what: string): T {
  const current = (): T => {
    const value = get();
    if (value === undefined)
      throw new Error(`${what} is not there yet: use it in a test or a hook after its own`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, property) {
      const target = current();
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
    set: (_, property, value) => Reflect.set(current(), property, value),
    has: (_, property) => Reflect.has(current(), property),
  });
}
