import vm from 'node:vm';

/*
 * jest's runtime here keeps V8's compiled code of a module between the files a worker runs
 * (tests/tools/compile-cache-runtime.js). V8 checks kept code against the source's length only, so the runtime must
 * compare the source itself: a module changed to a source of the same length must run as it now reads.
 */
const compile = (code: string, context: vm.Context) =>
  vm.compileFunction(code, ['module'], {
    filename: '/virtual/answer.js',
    parsingContext: context,
  }) as (module: { value?: number }) => void;

const run = (code: string) => {
  const module: { value?: number } = {};
  compile(code, vm.createContext({}))(module);
  return module.value;
};

test('when jest compiles a module, then the runtime that keeps its code does it', () => {
  expect(vm.compileFunction.name).toBe('compileWithCache');
});

test('when a module is compiled again, from its kept code, then it runs as before, in a context of its own', () => {
  expect(run('module.value = 1 + 1;')).toBe(2);
  expect(run('module.value = 1 + 1;')).toBe(2);
  expect(run('module.value = 1 + 1;')).toBe(2);
});

test('when a module changes to a source of the same length, then it runs as it now reads, not from the kept code', () => {
  expect(run('module.value = 40 + 1;')).toBe(41);
  expect(run('module.value = 40 + 1;')).toBe(41);
  expect(run('module.value = 40 + 2;')).toBe(42);
  expect(run('module.value = 40 + 2;')).toBe(42);
  expect(run('module.value = 40 + 1;')).toBe(41);
});
