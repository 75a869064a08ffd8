/**
 * Makes NestJS 12's ES modules run as CommonJS under Jest. `createRequire(import.meta.url)` becomes
 * the module's own (Jest) require, so packages it loads share Jest's registry with everything else;
 * any other `import.meta.url` becomes the module's file URL.
 */
module.exports = function importMetaToCommonJs({ types: t }) {
  const isCreateRequireOfMeta = (node) =>
    t.isCallExpression(node) &&
    t.isIdentifier(node.callee, { name: 'createRequire' }) &&
    node.arguments.length === 1 &&
    t.isMemberExpression(node.arguments[0]) &&
    t.isMetaProperty(node.arguments[0].object);
  return {
    name: 'import-meta-to-commonjs',
    visitor: {
      VariableDeclarator(path) {
        if (t.isIdentifier(path.node.id, { name: 'require' }) && isCreateRequireOfMeta(path.node.init)) path.remove();
      },
      CallExpression(path) {
        if (isCreateRequireOfMeta(path.node)) path.replaceWith(t.identifier('require'));
      },
      MetaProperty(path) {
        if (path.node.meta.name !== 'import' || path.node.property.name !== 'meta') return;
        path.replaceWithSourceString(`({ url: 'file://' + __filename })`);
      },
    },
  };
};
