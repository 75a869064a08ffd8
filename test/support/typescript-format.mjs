/** Node's ES module loader knows no `.ts`: it is CommonJS here, compiled by register-typescript.js. */
export async function load(url, context, nextLoad) {
  // The runner imports a test file with a query (`?<time>`), so the extension is read before it.
  if (url.startsWith('file:') && /\.ts(\?|#|$)/.test(url)) return { format: 'commonjs', shortCircuit: true };
  return nextLoad(url, context);
}
