module.exports = {
  displayName: 'results',
  preset: '../../jest.preset.js',
  coverageDirectory: '../../coverage/libs/results',
};
