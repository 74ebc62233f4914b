module.exports = {
  displayName: 'arvo-docker',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/arvo-docker',
};
