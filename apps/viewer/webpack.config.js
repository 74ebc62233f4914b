const { nodeAppBundle } = require('../../webpack.preset');

// The server as one bundle, and the page's files beside it as they are (plain ES modules, no bundler):
// dist/apps/viewer/{main.js,public/}.
module.exports = nodeAppBundle(__dirname, { assets: ['./src/public'] });
