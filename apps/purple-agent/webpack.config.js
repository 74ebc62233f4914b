const { nodeAppBundle } = require('../../webpack.preset');

// No grammar: this agent never parses code (it imports the loc.json format, not the judge).
module.exports = nodeAppBundle(__dirname, { assets: ['./src/assets'] });
