module.exports = {
  displayName: 'green-agent',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/apps/green-agent',
};
