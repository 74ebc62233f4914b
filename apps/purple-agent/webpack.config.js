const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { join } = require('path');

// One bundle of the app and the workspace libs it imports; packages from node_modules stay external
// (generatePackageJson lists them for the deploy image).
module.exports = {
  output: { path: join(__dirname, '../../dist/apps/purple-agent'), clean: true },
  plugins: [
    new NxAppWebpackPlugin({
      target: 'node',
      compiler: 'tsc',
      main: './src/main.ts',
      tsConfig: './tsconfig.app.json',
      assets: ['./src/assets'],
      optimization: false,
      outputHashing: 'none',
      generatePackageJson: true,
      sourceMap: true,
      // Needed at run time but invisible to the bundler: tslib (importHelpers). No grammar: this agent
      // never parses code (it imports the loc.json format, not the judge).
      runtimeDependencies: ['tslib'],
    }),
  ],
};
