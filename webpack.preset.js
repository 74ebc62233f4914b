const { NxAppWebpackPlugin } = require('@nx/webpack/app-plugin');
const { basename, join } = require('path');

/**
 * The build of one of our Node apps: one bundle of the app and the workspace libs it imports, into
 * dist/apps/<name>; packages from node_modules stay external (generatePackageJson lists them for the
 * deploy image). `assets` are copied beside the bundle as they are; `runtimeDependencies` are packages
 * needed at run time but invisible to the bundler, tslib (importHelpers) always among them.
 */
function nodeAppBundle(appDir, { assets, runtimeDependencies = [] }) {
  return {
    output: { path: join(__dirname, 'dist/apps', basename(appDir)), clean: true },
    plugins: [
      new NxAppWebpackPlugin({
        target: 'node',
        compiler: 'tsc',
        main: './src/main.ts',
        tsConfig: './tsconfig.app.json',
        assets,
        optimization: false,
        outputHashing: 'none',
        generatePackageJson: true,
        sourceMap: true,
        runtimeDependencies: ['tslib', ...runtimeDependencies],
      }),
    ],
  };
}

module.exports = { nodeAppBundle };
