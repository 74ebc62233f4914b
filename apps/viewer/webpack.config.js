const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');

// The server as one bundle with the workspace libs it imports, and the page's files beside it as they
// are (plain ES modules, no bundler): dist/apps/viewer/{main.js,public/}.
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/viewer'), clean: true },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.app.json',
      assets: ['./src/public'],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
      // Needed at run time but invisible to the bundler: tslib (importHelpers).
      runtimeDependencies: ['tslib'],
    }),
  ],
};
