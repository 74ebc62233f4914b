module.exports = {
  displayName: 'stats',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/stats',
};
