// jest's runtime, with V8's compiled code kept between the test files a worker runs (jest.config.js's `runtime`).
//
// jest gives every test file modules of its own, so it compiles every module a file loads anew for each file: a
// service's harness loads about a thousand (zod, drizzle, express, protobufjs, the kit, the service), and V8 compiled
// each function of them again in every file that ran it. Here a module is compiled as a script whose code V8 can
// hand back (`createCachedData`) once a file has run it, functions compiled on the way included, and the next file
// of the same worker that loads the same source starts from that code instead of from the text. Each file still gets
// its own module objects, run in its own context: only the compiling is shared, exactly as Node's own compile cache
// shares it between processes. V8 checks the code against the source's length and its flags only, so the source is
// compared here: a module changed to a source of the same length is never served old code
// (packages/testing/src/compile-cache.test.ts).
// docs/testing.md, "Where the time goes".
'use strict';
const vm = require('node:vm');

const compileFunction = vm.compileFunction;
/** By file name: the wrapped source, and the script compiled from it until its code is taken, then the code. */
const compiled = new Map();

vm.compileFunction = function compileWithCache(code, params, options) {
  const filename = options?.filename;
  // Only jest's own calls (a file in a test's context); anything else compiles as Node does.
  if (!filename || !options.parsingContext || options.cachedData || options.produceCachedData) {
    return compileFunction.call(this, code, params, options);
  }
  // The same function compileFunction makes, as an expression; the module's code keeps its own lines.
  const source = `(function (${params.join(', ')}) {${code}\n})`;
  let kept = compiled.get(filename);
  if (kept?.source !== source) kept = undefined;
  if (kept?.script) {
    // The file that compiled it has run it by now: its code holds every function that file called.
    kept.data = kept.script.createCachedData();
    kept.script = undefined;
  }
  const script = new vm.Script(source, {
    filename,
    cachedData: kept?.data,
    importModuleDynamically: options.importModuleDynamically,
  });
  if (!kept?.data || script.cachedDataRejected) compiled.set(filename, { source, script });
  return script.runInContext(options.parsingContext);
};

module.exports = require('jest-runtime');
