const { nodeAppBundle } = require('../../webpack.preset');

// The grammars' .wasm the judge loads by path are needed at run time but invisible to the bundler.
module.exports = nodeAppBundle(__dirname, { assets: ['./src/assets'], runtimeDependencies: ['tree-sitter-c', 'tree-sitter-cpp'] });
