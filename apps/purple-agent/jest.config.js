module.exports = {
  displayName: 'purple-agent',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/purple-agent',
};
