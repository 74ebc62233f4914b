module.exports = {
  displayName: 'a2a-protocol',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/a2a-protocol',
};
