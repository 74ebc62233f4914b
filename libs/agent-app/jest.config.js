module.exports = {
  displayName: 'agent-app',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/agent-app',
};
